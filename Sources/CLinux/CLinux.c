#define _GNU_SOURCE
#include <stddef.h>
#include <sys/socket.h>
#include <unistd.h>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

int clinux_lower_own_autogroup(int nice) {
    if (getsid(0) != getpid()) return 1;  // the session (and its autogroup) is shared: not ours to change
    int fd = open("/proc/self/autogroup", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;  // kernel without autogroups
    char text[64] = { 0 };  // "/autogroup-42 nice 0\n"
    ssize_t count = read(fd, text, sizeof text - 1);
    close(fd);
    const char *field = count > 0 ? strstr(text, "nice ") : NULL;
    if (field == NULL) return -1;
    if (atoi(field + 5) >= nice) return 0;
    // A fresh descriptor for the write: procfs's seq_file refuses pwrite.
    fd = open("/proc/self/autogroup", O_WRONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    char value[8];
    int length = snprintf(value, sizeof value, "%d", nice);
    int status = write(fd, value, (size_t)length) == length ? 0 : -1;
    close(fd);
    return status;
}

int clinux_set_thread_name(const char *name) {
    char truncated[16];
    strncpy(truncated, name, sizeof truncated - 1);
    truncated[sizeof truncated - 1] = '\0';
    return pthread_setname_np(pthread_self(), truncated);
}
