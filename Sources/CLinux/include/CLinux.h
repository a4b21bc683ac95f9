#ifndef CLINUX_H
#define CLINUX_H
// Linux APIs the Swift Glibc overlay does not export cleanly: epoll's flag enums, eventfd,
// and the GNU accept4. Kept minimal (no socket headers here) so this module's view of the
// system headers never clashes with Glibc's or Dispatch's.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <stdint.h>

static const uint32_t clinux_EPOLLIN = EPOLLIN;
static const uint32_t clinux_EPOLLOUT = EPOLLOUT;
static const uint32_t clinux_EPOLLERR = EPOLLERR;
static const uint32_t clinux_EPOLLHUP = EPOLLHUP;
static const uint32_t clinux_EPOLLRDHUP = EPOLLRDHUP;
static const uint32_t clinux_EPOLLET = EPOLLET;

extern const int clinux_SOCK_STREAM;
extern const int clinux_SOCK_NONBLOCK;
extern const int clinux_SOCK_CLOEXEC;
extern const int clinux_MSG_NOSIGNAL;

/// accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC): a GNU extension Glibc's overlay hides.
int clinux_accept4(int fd);

/// Moves the calling thread to SCHED_IDLE: it runs only when no other thread wants the CPU.
/// Returns 0 on success (needs no privilege).
int clinux_set_idle_priority(void);

/// Moves the calling thread back to SCHED_OTHER; 0 on success. Leaving SCHED_IDLE needs root
/// or an RLIMIT_NICE that allows nice 0.
int clinux_set_normal_priority(void);

/// 1 when this process may move a thread from SCHED_IDLE back to SCHED_OTHER (root, or an
/// RLIMIT_NICE of at least 20), checked without changing any thread's policy.
int clinux_can_leave_idle_priority(void);

#endif
