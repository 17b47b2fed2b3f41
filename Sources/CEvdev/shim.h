// libevdev for Swift. Only the TouchInput module imports this.
#ifndef GESTURED_CEVDEV_SHIM_H
#define GESTURED_CEVDEV_SHIM_H

#include <libevdev/libevdev.h>
#include <libevdev/libevdev-uinput.h>
#include <linux/input.h>
#include <sys/ioctl.h>
#include <time.h>
#include <string.h>

// struct input_event's time fields are macros on 32-bit time_t-safe kernels
// (input_event_sec/input_event_usec); Swift cannot see macros that expand to members.
static inline long gestured_input_event_sec(const struct input_event *ev) { return (long)ev->input_event_sec; }
static inline long gestured_input_event_usec(const struct input_event *ev) { return (long)ev->input_event_usec; }
static inline void gestured_input_event_set_time(struct input_event *ev, long sec, long usec) {
    ev->input_event_sec = sec;
    ev->input_event_usec = usec;
}

// EVIOCGNAME etc. are function-like macros; these wrap the ones we need.
static inline int gestured_eviocgname(int fd, char *buf, unsigned len) { return ioctl(fd, EVIOCGNAME(len), buf); }
static inline int gestured_eviocgprop(int fd, unsigned char *buf, unsigned len) { return ioctl(fd, EVIOCGPROP(len), buf); }

// Makes the kernel stamp events with CLOCK_MONOTONIC, so event times and deadlines share one clock.
static inline int gestured_set_monotonic_clock(int fd) {
    int clk = CLOCK_MONOTONIC;
    return ioctl(fd, EVIOCSCLOCKID, &clk);
}

#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <sys/socket.h>
#include <sys/un.h>

// struct sockaddr_un's path is a fixed C array; these fill and size it.
static inline socklen_t gestured_sockaddr_un(struct sockaddr_un *addr, const char *path) {
    memset(addr, 0, sizeof(*addr));
    addr->sun_family = AF_UNIX;
    strncpy(addr->sun_path, path, sizeof(addr->sun_path) - 1);
    return (socklen_t)sizeof(*addr);
}
static inline size_t gestured_sun_path_max(void) { return sizeof(((struct sockaddr_un *)0)->sun_path) - 1; }

// sigset_t manipulation is macro-heavy on glibc.
static inline int gestured_block_signals(sigset_t *set, const int *signals, int count) {
    sigemptyset(set);
    for (int i = 0; i < count; i++) sigaddset(set, signals[i]);
    return sigprocmask(SIG_BLOCK, set, NULL);
}
static inline int gestured_unblock_all(void) {
    sigset_t set;
    sigemptyset(&set);
    return sigprocmask(SIG_SETMASK, &set, NULL);
}

#endif
