// The Swift runtime from Debian sid is built against glibc 2.38, whose
// headers (C23 mode) turn strtol and friends into __isoc23_* symbols and
// declare strlcpy. Debian 12 and Raspberry Pi OS bookworm have glibc 2.36,
// which lacks those symbols, so a static runtime linked as is would not
// start there. These definitions, linked into the kiosk, satisfy the runtime
// with glibc 2.36's own functions: the C23 versions differ only in accepting
// "0b" prefixes, which the runtime never parses.
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long __isoc23_strtol(const char *text, char **end, int base) { return strtol(text, end, base); }
long long __isoc23_strtoll(const char *text, char **end, int base) { return strtoll(text, end, base); }
unsigned long __isoc23_strtoul(const char *text, char **end, int base) { return strtoul(text, end, base); }
unsigned long long __isoc23_strtoull(const char *text, char **end, int base) { return strtoull(text, end, base); }

int __isoc23_sscanf(const char *text, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    int assigned = vsscanf(text, format, arguments);
    va_end(arguments);
    return assigned;
}

// BSD strlcpy (glibc 2.38): copies at most size - 1 bytes, always terminates,
// returns the length of source so callers can detect truncation.
size_t strlcpy(char *destination, const char *source, size_t size) {
    size_t length = strlen(source);
    if (size > 0) {
        size_t copied = length < size - 1 ? length : size - 1;
        memcpy(destination, source, copied);
        destination[copied] = '\0';
    }
    return length;
}
