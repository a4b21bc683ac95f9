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

int clinux_set_background_priority(int nice) {
    struct sched_param param = { .sched_priority = 0 };
    int status = pthread_setschedparam(pthread_self(), SCHED_BATCH, &param);
    if (status != 0) return status;
    // On Linux the nice value belongs to the thread (PRIO_PROCESS with a thread id).
    return setpriority(PRIO_PROCESS, (id_t)gettid(), nice) == 0 ? 0 : -1;
}
