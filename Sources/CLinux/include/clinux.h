#ifndef RADAR_KIOSK_CLINUX_H
#define RADAR_KIOSK_CLINUX_H
// Kernel user-space interfaces the kiosk talks to directly (console, evdev,
// GPIO character device, signals), with the function-like macros and the
// variadic ioctl turned into things Swift can call.
#include <stddef.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <signal.h>
#include <linux/kd.h>
#include <linux/vt.h>
#include <linux/input.h>
#include <linux/gpio.h>
#include <linux/netlink.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>

static inline int radar_ioctl_int(int fd, unsigned long request, unsigned long argument) {
    return ioctl(fd, request, argument);
}
static inline int radar_ioctl_pointer(int fd, unsigned long request, void *argument) {
    return ioctl(fd, request, argument);
}

static const unsigned long radar_kdsetmode = KDSETMODE;
static const unsigned long radar_kdgetmode = KDGETMODE;
static const unsigned long radar_kdskbmode = KDSKBMODE;
static const unsigned long radar_kdgkbmode = KDGKBMODE;
static const int radar_kd_graphics = KD_GRAPHICS;
static const int radar_kd_text = KD_TEXT;
static const int radar_k_off = K_OFF;

static const int radar_tfd_flags = TFD_CLOEXEC | TFD_NONBLOCK;
static const int radar_tfd_absolute_cancel_on_set = TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET;
static const unsigned long radar_vt_setmode = VT_SETMODE;
static const unsigned long radar_vt_reldisp = VT_RELDISP;

static const unsigned long radar_eviocgrab = EVIOCGRAB;
static inline unsigned long radar_eviocgbit(int type, int length) { return EVIOCGBIT(type, length); }
static inline unsigned long radar_eviocgname(int length) { return EVIOCGNAME(length); }
static inline unsigned long radar_eviocgabs(int axis) { return EVIOCGABS(axis); }
static inline unsigned long radar_eviocgprop(int length) { return EVIOCGPROP(length); }

static const unsigned long radar_gpio_get_chipinfo = GPIO_GET_CHIPINFO_IOCTL;
static const unsigned long radar_gpio_v2_get_lineinfo = GPIO_V2_GET_LINEINFO_IOCTL;
static const unsigned long radar_gpio_v2_get_line = GPIO_V2_GET_LINE_IOCTL;
static const unsigned long radar_gpio_v2_line_get_values = GPIO_V2_LINE_GET_VALUES_IOCTL;
static const unsigned long radar_gpio_v2_line_set_values = GPIO_V2_LINE_SET_VALUES_IOCTL;

/// A non-blocking, close-on-exec eventfd (a counter other threads can wake the loop with).
static inline int radar_eventfd(void) {
    return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}

/// The processors this process may run on (its affinity), at least 1.
/// (In clinux.c: glibc declares these for _GNU_SOURCE only, which would change
/// the system headers' structures under the other C modules.)
int radar_available_processors(void);

/// Names the calling thread (15 bytes kept), for top and the journal.
void radar_name_thread(const char *name);

/// Blocks `signal` for normal delivery and returns a descriptor that reads it.
static inline int radar_signalfd(const int *signals, int count) {
    sigset_t set;
    sigemptyset(&set);
    for (int i = 0; i < count; i++) sigaddset(&set, signals[i]);
    if (sigprocmask(SIG_BLOCK, &set, NULL) != 0) return -1;
    return signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
}
#endif
