#define _GNU_SOURCE
#include <stddef.h>
#include <sys/socket.h>
#include <unistd.h>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include "CLinux.h"

const int clinux_SOCK_STREAM = SOCK_STREAM;
const int clinux_SOCK_NONBLOCK = SOCK_NONBLOCK;
const int clinux_SOCK_CLOEXEC = SOCK_CLOEXEC;
const int clinux_MSG_NOSIGNAL = MSG_NOSIGNAL;

int clinux_accept4(int fd) {
    return accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

int clinux_set_idle_priority(void) {
    struct sched_param param = { .sched_priority = 0 };
    return pthread_setschedparam(pthread_self(), SCHED_IDLE, &param);
}

int clinux_set_normal_priority(void) {
    struct sched_param param = { .sched_priority = 0 };
    return pthread_setschedparam(pthread_self(), SCHED_OTHER, &param);
}

int clinux_can_leave_idle_priority(void) {
    if (geteuid() == 0) return 1;
    struct rlimit limit;
    return getrlimit(RLIMIT_NICE, &limit) == 0 && limit.rlim_cur >= 20;
}
