// libevdev and the kernel's input headers (linux/input.h), for Swift. Only TouchInput imports this.
#ifndef GESTURED_CLIBEVDEV_SHIM_H
#define GESTURED_CLIBEVDEV_SHIM_H

#include <libevdev/libevdev.h>
#include <libevdev/libevdev-uinput.h>
#include <linux/input.h>
#include <linux/uinput.h>
#include <sys/ioctl.h>
#include <time.h>

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

// UI_SET_PHYS: a uinput device's phys, before it is created (libevdev's uinput API does not set it).
static inline int gestured_uinput_set_phys(int fd, const char *phys) { return ioctl(fd, UI_SET_PHYS, phys); }

#endif
