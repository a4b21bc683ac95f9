// The bar for our bcrypt: libcrypt called directly, the best any wrapper can do.
//
// N threads (default: online cores, one per core like WorkerPool.shared) each loop on
// crypt_gensalt_rn("$2b$", cost, 16 random bytes) + crypt_rn with their own crypt_data until
// T seconds have passed, then finish the hash in hand. Prints hashes/s over the wall time
// until the last thread is done: the same method as `til-bench bcrypt`.
//
//   gcc -O2 -pthread -o bcrypt-c bcrypt-c.c -lcrypt && ./bcrypt-c [seconds] [threads] [cost]
#define _GNU_SOURCE
#include <crypt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double deadline;
static unsigned long cost;

static void *worker(void *arg) {
    long *done = arg;
    struct crypt_data *data = calloc(1, sizeof *data);
    char setting[CRYPT_GENSALT_OUTPUT_SIZE];
    unsigned char salt[16];
    if (data == NULL) abort();
    while (now() < deadline) {
        if (getrandom(salt, sizeof salt, 0) != sizeof salt) abort();
        if (crypt_gensalt_rn("$2b$", cost, (const char *)salt, sizeof salt, setting, sizeof setting) == NULL) abort();
        const char *hash = crypt_rn("correct horse battery staple", setting, data, sizeof *data);
        if (hash == NULL || hash[0] == '*') abort();
        *done += 1;
    }
    free(data);
    return NULL;
}

int main(int argc, char **argv) {
    int seconds = argc > 1 ? atoi(argv[1]) : 10;
    int threads = argc > 2 ? atoi(argv[2]) : (int)sysconf(_SC_NPROCESSORS_ONLN);
    cost = argc > 3 ? strtoul(argv[3], NULL, 10) : 12;
    if (seconds < 1 || threads < 1 || threads > 1024 || cost < 4 || cost > 31) {
        fprintf(stderr, "usage: bcrypt-c [seconds >= 1] [threads] [cost 4...31]\n");
        return 2;
    }
    pthread_t ids[1024];
    long counts[1024] = {0};
    double start = now();
    deadline = start + seconds;
    for (int i = 0; i < threads; i++) {
        if (pthread_create(&ids[i], NULL, worker, &counts[i]) != 0) abort();
    }
    long total = 0;
    for (int i = 0; i < threads; i++) {
        pthread_join(ids[i], NULL);
        total += counts[i];
    }
    double elapsed = now() - start;
    printf("bcrypt cost %lu via libcrypt (C, %d threads): %ld hashes in %.2f s = %.2f hashes/s\n",
           cost, threads, total, elapsed, (double)total / elapsed);
    return 0;
}
