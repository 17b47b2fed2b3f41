/* scripts/vm/floor.c — the benchmark's floor: what any reader of a touch device that waits in
 * epoll costs at the least. It waits on the device, reads what is there in one read(2) and
 * does nothing with it. Built by scripts/vm/bench.sh (cc -O2) and run as the "floor" program:
 * the CPU of gestured, lisgd and libinput above this row is their own work.
 *
 * usage: floor /dev/input/eventN */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/epoll.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s DEVICE\n", argv[0]);
        return 2;
    }
    int fd = open(argv[1], O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        perror(argv[1]);
        return 1;
    }
    int ep = epoll_create1(EPOLL_CLOEXEC);
    struct epoll_event ev = { .events = EPOLLIN, .data.fd = fd };
    if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) < 0) {
        perror("epoll");
        return 1;
    }
    char buffer[64 * 24];
    for (;;) {
        struct epoll_event ready;
        if (epoll_wait(ep, &ready, 1, -1) < 1)
            continue;
        ssize_t n = read(fd, buffer, sizeof buffer);
        if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
            return 0; /* the device went away */
    }
}
