// Linux system calls through glibc that Swift cannot use as they are (macros, fixed C arrays):
// epoll, timerfd, signalfd, eventfd, threads, Unix and TCP sockets, signal sets, posix_spawn, malloc_trim, getrandom. Only SystemLoop imports this.
#ifndef GESTURED_CLINUX_SHIM_H
#define GESTURED_CLINUX_SHIM_H

#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <sys/eventfd.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <malloc.h>
#include <sys/random.h>
#include <netinet/in.h>
#include <arpa/inet.h>

// accept4 is a GNU extension that glibc declares only under _GNU_SOURCE: the system call, taking
// a connection that is non-blocking and close-on-exec from the start.
static inline int gestured_accept(int listener) {
    return (int)syscall(SYS_accept4, listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

// The process at the other end of a Unix socket (SO_PEERCRED); -1 when unknown. struct ucred is
// declared only under _GNU_SOURCE: the same three fields, in its order.
static inline int gestured_peer_pid(int fd) {
    struct { pid_t pid; uid_t uid; gid_t gid; } cred;
    socklen_t length = sizeof(cred);
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &length) != 0 || length != sizeof(cred)) return -1;
    return (int)cred.pid;
}

// Gives memory freed at the heap's top (and whole free pages inside it) back to the system.
static inline int gestured_release_freed_memory(void) { return malloc_trim(0); }

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
static inline int gestured_unblock_all_signals(void) {
    sigset_t none;
    sigemptyset(&none);
    return sigprocmask(SIG_SETMASK, &none, NULL);
}

// The exit status macros of waitpid.
static inline int gestured_exited(int status) { return WIFEXITED(status); }
static inline int gestured_exit_status(int status) { return WEXITSTATUS(status); }
static inline int gestured_signalled(int status) { return WIFSIGNALED(status); }
static inline int gestured_term_signal(int status) { return WTERMSIG(status); }

#endif
