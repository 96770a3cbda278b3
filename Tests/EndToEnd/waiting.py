#!/usr/bin/env python3
"""Waiting for conditions, for the end-to-end tests: never a fixed sleep where
something can be watched, so the tests hold on a loaded machine."""
import time


def wait_for(condition, timeout, step=0.05):
    """Polls `condition` until it is true or `timeout` seconds pass; returns its last value."""
    deadline = time.time() + timeout
    while True:
        value = condition()
        if value or time.time() > deadline:
            return value
        time.sleep(step)


def wait_until_steady(measure, steady_for, timeout, step=0.1):
    """Waits until `measure()` has not changed for `steady_for` seconds (or `timeout` passes)."""
    deadline, last, since = time.time() + timeout, measure(), time.time()
    while time.time() < deadline and time.time() - since < steady_for:
        time.sleep(step)
        now = measure()
        if now != last:
            last, since = now, time.time()
    return time.time() - since >= steady_for
