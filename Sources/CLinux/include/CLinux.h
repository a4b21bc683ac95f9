#ifndef CLINUX_H
#define CLINUX_H
// Linux APIs the Swift Glibc overlay does not export cleanly: epoll's flag enums, eventfd,
// the GNU accept4, and the scheduling classes of bcrypt's threads. Kept minimal (no socket headers here) so this module's view of the
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

/// Moves the calling thread, for the rest of its life, to SCHED_BATCH at `nice` (0...19):
/// it never preempts a waking thread and gets a weighted share of the CPU (nice 5 ≈ a third of
/// a nice-0 thread's), never nothing. Needs no privilege; 0 on success.
int clinux_set_background_priority(int nice);

/// Raises the nice value of this process's autogroup (the CPU share that the kernel gives the
/// whole session against other sessions) to at least `nice` — only when the process leads its
/// own session, so a shell it was started from is never touched. 0 when set or already that
/// low, 1 when the session is shared, -1 when the kernel has no autogroups or refused.
int clinux_lower_own_autogroup(int nice);

/// Names the calling thread (pthread_setname_np, a GNU extension), truncated to the kernel's
/// 15 bytes; 0 on success.
int clinux_set_thread_name(const char *name);

#endif
