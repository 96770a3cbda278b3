/* A multitouch panel made with uinput, for the VM tests: protocol B (slots
 * and tracking ids), INPUT_PROP_DIRECT, the axis ranges of a real panel.
 *
 *   touchpanel FIFO NAME WIDTH HEIGHT
 *
 * creates the device, then takes one command a line from FIFO (opened
 * read-write, so that writers coming and going never end it):
 *   tap X Y               a finger down and up at (X, Y), 50 ms apart
 *   swipe X1 Y1 X2 Y2     a finger drawn from one point to the other in 300 ms
 *   flood SECONDS RATE    RATE events a second: short touches in a corner
 *   destroy / create      the device unplugged / plugged in again
 * and writes "ok CMD" to stdout after each. Test code: never shipped. */
#include <fcntl.h>
#include <linux/uinput.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

static int fd = -1, width, height, tracking = 1;
static const char *name;
/* Events are gathered and written together, as a driver's interrupt hands
 * the kernel a whole report: one write a batch, not a syscall an event. */
static struct input_event batch[1024];
static int batched;

static void flush(void) {
    ssize_t size = (ssize_t)(batched * sizeof batch[0]);
    if (batched && write(fd, batch, size) != size) perror("write");
    batched = 0;
}

static void emit(int type, int code, int value) {
    if (batched == (int)(sizeof batch / sizeof batch[0])) flush();
    struct input_event e = {0};
    e.type = type;
    e.code = code;
    e.value = value;
    batch[batched++] = e;
}

static void syn(void) { emit(EV_SYN, SYN_REPORT, 0); }



static void sleep_ms(long ms) {
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

static void axis(int code, int maximum) {
    struct uinput_abs_setup a = {0};
    a.code = code;
    a.absinfo.maximum = maximum;
    if (ioctl(fd, UI_ABS_SETUP, &a) < 0) perror("UI_ABS_SETUP");
}

static void create(void) {
    fd = open("/dev/uinput", O_WRONLY | O_NONBLOCK);
    if (fd < 0) { perror("/dev/uinput"); exit(1); }
    ioctl(fd, UI_SET_EVBIT, EV_KEY);
    ioctl(fd, UI_SET_KEYBIT, BTN_TOUCH);
    ioctl(fd, UI_SET_EVBIT, EV_ABS);
    int codes[] = {ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_TRACKING_ID, ABS_MT_POSITION_X, ABS_MT_POSITION_Y};
    for (unsigned i = 0; i < sizeof codes / sizeof codes[0]; i++) ioctl(fd, UI_SET_ABSBIT, codes[i]);
    ioctl(fd, UI_SET_PROPBIT, INPUT_PROP_DIRECT);
    axis(ABS_X, width - 1);
    axis(ABS_Y, height - 1);
    axis(ABS_MT_SLOT, 9);
    axis(ABS_MT_TRACKING_ID, 65535);
    axis(ABS_MT_POSITION_X, width - 1);
    axis(ABS_MT_POSITION_Y, height - 1);
    struct uinput_setup s = {0};
    s.id.bustype = BUS_I2C;
    s.id.vendor = 0x0416;
    s.id.product = 0x5406;
    snprintf(s.name, sizeof s.name, "%s", name);
    if (ioctl(fd, UI_DEV_SETUP, &s) < 0 || ioctl(fd, UI_DEV_CREATE) < 0) { perror("UI_DEV_CREATE"); exit(1); }
}

static void destroy(void) {
    ioctl(fd, UI_DEV_DESTROY);
    close(fd);
    fd = -1;
}

static void down(int x, int y) {
    emit(EV_ABS, ABS_MT_SLOT, 0);
    emit(EV_ABS, ABS_MT_TRACKING_ID, tracking++ & 0xFFFF);
    emit(EV_ABS, ABS_MT_POSITION_X, x);
    emit(EV_ABS, ABS_MT_POSITION_Y, y);
    emit(EV_KEY, BTN_TOUCH, 1);
    emit(EV_ABS, ABS_X, x);
    emit(EV_ABS, ABS_Y, y);
    syn();
}

/* Each report is gathered until flush (a tap's down goes at once, a flood's 10 ms together). */
static void move(int x, int y) {
    emit(EV_ABS, ABS_MT_POSITION_X, x);
    emit(EV_ABS, ABS_MT_POSITION_Y, y);
    emit(EV_ABS, ABS_X, x);
    emit(EV_ABS, ABS_Y, y);
    syn();
}

static void up(void) {
    emit(EV_ABS, ABS_MT_TRACKING_ID, -1);
    emit(EV_KEY, BTN_TOUCH, 0);
    syn();
}

int main(int argc, char **argv) {
    if (argc != 5) { fprintf(stderr, "usage: touchpanel FIFO NAME WIDTH HEIGHT\n"); return 2; }
    name = argv[2];
    width = atoi(argv[3]);
    height = atoi(argv[4]);
    FILE *in = fopen(argv[1], "r+");
    if (!in) { perror(argv[1]); return 1; }
    setvbuf(stdout, NULL, _IOLBF, 0);
    create();
    printf("ok create\n");
    char line[256];
    while (fgets(line, sizeof line, in)) {
        int x1, y1, x2, y2;
        double seconds, rate;
        if (sscanf(line, "tap %d %d", &x1, &y1) == 2) {
            down(x1, y1);
            flush();
            sleep_ms(50);
            up();
            flush();
        } else if (sscanf(line, "swipe %d %d %d %d", &x1, &y1, &x2, &y2) == 4) {
            down(x1, y1);
            flush();
            for (int i = 1; i <= 10; i++) {
                sleep_ms(30);
                move(x1 + (x2 - x1) * i / 10, y1 + (y2 - y1) * i / 10);
                flush();
            }
            up();
            flush();
        } else if (sscanf(line, "flood %lf %lf", &seconds, &rate) == 2) {
            /* Batches every 10 ms of RATE / 100 events: short touches at
             * (X, Y) of 20 events each (down 7, two moves 10, up 3), each
             * one a gesture the kiosk must recognise and hit-test. */
            long batches = (long)(seconds * 100), per = (long)(rate / 100), sent = 0;
            int x = width / 40, y = height / 40;
            for (long b = 0; b < batches; b++) {
                for (long i = 0; i + 20 <= per; i += 20) {
                    down(x, y);
                    move(x + 1, y);
                    move(x, y + 1);
                    up();
                    sent += 20;
                }
                flush();
                sleep_ms(10);
            }
            printf("sent %ld\n", sent);
        } else if (strncmp(line, "destroy", 7) == 0) {
            destroy();
        } else if (strncmp(line, "create", 6) == 0) {
            create();
        } else {
            fprintf(stderr, "touchpanel: unknown command %s", line);
            continue;
        }
        line[strcspn(line, "\n")] = 0;
        printf("ok %s\n", line);
    }
    return 0;
}
