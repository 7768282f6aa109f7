/*
 * netns-lab calibration probes: what every probe shares.
 *
 * Each probe measures one kind of kernel work on this host and prints one JSON object per line on
 * stdout. A probe that cannot run prints one line {"error": ..., "missing": ..., "hint": ...} and exits 2.
 *
 * Safety rules every probe keeps (the user's machine is not ours):
 *  - bounded: every loop has a count given on the command line and a whole-probe alarm (PROBE_TIMEOUT_S,
 *    default 120 s) after which it exits;
 *  - every process a probe makes is its child or grandchild and sets PR_SET_PDEATHSIG(SIGKILL): when the
 *    probe ends (normally, by Ctrl-C, SIGTERM or its alarm) they are killed, and with them every user and
 *    network namespace they made (a namespace lives only as long as a process or fd holds it; nothing is
 *    bind-mounted, nothing shows in `ip netns`);
 *  - a receive buffer is raised (SO_RCVBUFFORCE) only on sockets inside the probe's own network namespaces;
 *  - nothing is sent off the machine: netlink only.
 *
 * Test hooks: NETNS_LAB_PROBE_FAIL=userns|connector|proc-events makes the probe behave as if the kernel
 * refused that step, so the failure lines can be tested on a machine where everything works;
 * NETNS_LAB_PROBE_PAUSE=trace-read holds netns_probe while it reads its trace, for a signal there.
 */
#ifndef NETNS_LAB_PROBE_H
#define NETNS_LAB_PROBE_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *probe_name = "probe";

/* CLOCK_MONOTONIC in ns: the clock a process times itself with (vDSO, ~20 ns a read). */
static inline int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t) ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* A struct rusage time (ru_utime, ru_stime: microseconds) in ns. */
static inline int64_t timeval_ns(struct timeval tv) {
    return (int64_t) tv.tv_sec * 1000000000LL + (int64_t) tv.tv_usec * 1000LL;
}

/* This process's CPU time (user + system) in ns: exact (sum_exec_runtime), unlike getrusage's split. */
static inline int64_t cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (int64_t) ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The machine's CPU time since boot from /proc/stat's "cpu" line, in ns (USER_HZ ticks): busy (user, nice,
 * system, irq, softirq), idle (idle, iowait) and steal (a hypervisor ran something else on our vCPUs). Whole
 * ticks only: compare over windows of tens of ms or more. Returns 0 when /proc/stat cannot be read. */
typedef struct { int64_t busy, idle, steal; } cpu_times_t;
static inline int cpu_times(cpu_times_t *t) {
    FILE *f = fopen("/proc/stat", "re");
    if (!f) return 0;
    unsigned long long v[8] = { 0 };
    int n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
    fclose(f);
    if (n < 8) return 0;
    int64_t tick = 1000000000LL / sysconf(_SC_CLK_TCK);
    t->busy = (int64_t) (v[0] + v[1] + v[2] + v[5] + v[6]) * tick;
    t->idle = (int64_t) (v[3] + v[4]) * tick;
    t->steal = (int64_t) v[7] * tick;
    return 1;
}

/* Waits until the machine is quiet before a contended load is measured: the CPUs busy less than a quarter of a
 * 100 ms window (/proc/stat counts whole 10 ms ticks, so a shorter window or a lower bar fails on a single tick
 * of background work), for at most max_ms. A load started right after another would otherwise pay for the
 * other's tail, e.g. cleanup_net dismantling a thousand netns on a kworker after their processes exited (one CPU
 * fully busy: half the machine's capacity on 2 CPUs), which is not its own work. Returns the ms waited, max_ms
 * when it never got quiet (the caller says so), -1 without /proc/stat. */
static inline long settle(long max_ms) {
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    if (ncpu < 1) ncpu = 1;
    for (long waited = 0; waited < max_ms; waited += 100) {
        cpu_times_t a, b;
        if (!cpu_times(&a)) return -1;
        struct timespec ts = { 0, 100000000 };
        nanosleep(&ts, NULL);
        if (!cpu_times(&b)) return -1;
        if ((b.busy - a.busy) * 4 < 100000000LL * ncpu) return waited;
    }
    return max_ms;
}

static inline void json_escape_print(const char *s) {
    putchar('"');
    for (; *s; s++) {
        unsigned char c = (unsigned char) *s;
        if (c == '"' || c == '\\') { putchar('\\'); putchar(c); }
        else if (c < 0x20) printf("\\u%04x", c);
        else putchar(c);
    }
    putchar('"');
}

/* The one failure line, then exit 2. `missing` names what is missing, `hint` what the user can do. */
static inline void fail_missing(const char *missing, const char *hint, const char *fmt, ...) {
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    printf("{\"probe\":");
    json_escape_print(probe_name);
    printf(",\"error\":");
    json_escape_print(msg);
    printf(",\"missing\":");
    json_escape_print(missing);
    printf(",\"hint\":");
    json_escape_print(hint);
    printf("}\n");
    fflush(stdout);
    exit(2);
}

static inline int simulated_failure(const char *what) {
    const char *f = getenv("NETNS_LAB_PROBE_FAIL");
    return f != NULL && strcmp(f, what) == 0;
}

/* Set by a probe that holds something outside its processes (a tracefs instance) to release it. */
static void (*probe_cleanup)(void) = NULL;

static inline void on_alarm(int sig) {
    (void) sig;
    if (probe_cleanup) probe_cleanup();
    /* on a line of its own: a fork may have flushed the start of a result line (fork_child) */
    static const char line[] = "\n{\"error\":\"probe timed out\",\"missing\":\"time\",\"hint\":\"the machine is too slow or busy for this probe's bound; retry on a quieter machine\"}\n";
    ssize_t w = write(1, line, sizeof line - 1);
    (void) w;
    _exit(3);
}

/* Test hook: NETNS_LAB_PROBE_PAUSE=<where> holds the probe at that point (saying so on stderr) until a signal ends
 * it, so that a test can signal it there. */
static inline void probe_pause(const char *where) {
    const char *p = getenv("NETNS_LAB_PROBE_PAUSE");
    if (p == NULL || strcmp(p, where) != 0) return;
    fprintf(stderr, "%s: paused at %s\n", probe_name, where);
    for (;;) pause();
}

/* Whole-probe bound, and the probe dies with its parent (the JVM running calibrate). */
static inline void probe_init(const char *name) {
    probe_name = name;
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    const char *t = getenv("PROBE_TIMEOUT_S");
    unsigned secs = t ? (unsigned) atoi(t) : 120;
    struct sigaction sa;   /* the stop signals wait while the alarm's handler removes what the probe holds */
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT);
    sigaddset(&sa.sa_mask, SIGTERM);
    sigaddset(&sa.sa_mask, SIGHUP);
    sigaction(SIGALRM, &sa, NULL);
    alarm(secs > 0 ? secs : 120);
    setvbuf(stdout, NULL, _IOLBF, 0);
}

/* fork() whose child dies with its parent: every process a probe makes goes through here. */
static inline pid_t fork_child(void) {
    pid_t parent = getpid();
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        fail_missing("processes", "raise the process limit (ulimit -u) or run a smaller probe",
                     "fork failed: %s", strerror(errno));
    }
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(1);
    }
    return pid;
}

static inline void write_file(const char *path, const char *text) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t) strlen(text)) {
        fail_missing("user namespaces", "enable unprivileged user namespaces or run as root",
                     "cannot write %s: %s", path, strerror(errno));
    }
    close(fd);
}

/*
 * unshare(CLONE_NEWUSER | CLONE_NEWNET) in this (single-threaded) process and map our uid to root in the
 * new user namespace: we then own the new netns's user namespace, so uevent injection's
 * netlink_ns_capable(skb, net->user_ns, CAP_SYS_ADMIN) (lib/kobject_uevent.c uevent_net_rcv_skb) passes.
 */
static inline void enter_userns_netns(void) {
    uid_t uid = getuid();
    gid_t gid = getgid();
    if (simulated_failure("userns") || unshare(CLONE_NEWUSER | CLONE_NEWNET) != 0) {
        int e = simulated_failure("userns") ? EPERM : errno;
        fail_missing("user namespaces",
                     "enable them: sysctl user.max_user_namespaces=10000 (and kernel.unprivileged_userns_clone=1 "
                     "where that sysctl exists), or run calibrate with --only proc",
                     "unshare(CLONE_NEWUSER|CLONE_NEWNET) refused: %s", strerror(e));
    }
    char buf[64];
    write_file("/proc/self/setgroups", "deny");
    snprintf(buf, sizeof buf, "0 %u 1", (unsigned) uid);
    write_file("/proc/self/uid_map", buf);
    snprintf(buf, sizeof buf, "0 %u 1", (unsigned) gid);
    write_file("/proc/self/gid_map", buf);
}

/* Pins the calling process to one CPU; returns sched_setaffinity's result (0 when pinned). */
static inline int pin_to_cpu(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof set, &set);
}

/* Shared memory a parent and its children write results into (MAP_SHARED | MAP_ANONYMOUS). */
static inline void *shared_alloc(size_t bytes) {
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        fail_missing("memory", "run a smaller probe", "mmap of %zu bytes failed: %s", bytes, strerror(errno));
    }
    return p;
}

/* A start barrier: children block in gate_wait until the parent calls gate_open (closes the write end). */
typedef struct { int rd, wr; } gate_t;
static inline gate_t gate_new(void) {
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0) fail_missing("file descriptors", "raise ulimit -n", "pipe: %s", strerror(errno));
    gate_t g = { p[0], p[1] };
    return g;
}
static inline void gate_wait(gate_t g) {
    char c;
    close(g.wr);
    while (read(g.rd, &c, 1) < 0 && errno == EINTR) { }
    close(g.rd);
}
static inline void gate_open(gate_t g) { close(g.wr); close(g.rd); }

/* A ready signal: a child writes one byte when set up; the parent waits for n of them. */
static inline void ready_wait(int rd, long n) {
    char buf[256];
    while (n > 0) {
        ssize_t r = read(rd, buf, n < (long) sizeof buf ? (size_t) n : sizeof buf);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) fail_missing("child processes", "see the probe's other lines", "a child died during set-up");
        n -= r;
    }
}

static inline int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *) a, y = *(const int64_t *) b;
    return (x > y) - (x < y);
}

/* Sorts v in place; prints <prefix>_count and <prefix>_{mean,p50,p99,max}_<unit> (with a leading comma). */
static inline void print_dist(const char *prefix, const char *unit, int64_t *v, long n) {
    if (n <= 0) { printf(",\"%s_count\":0", prefix); return; }
    qsort(v, (size_t) n, sizeof *v, cmp_i64);
    double sum = 0;
    for (long i = 0; i < n; i++) sum += (double) v[i];
    long i50 = (long) (0.50 * (n - 1) + 0.5), i99 = (long) (0.99 * (n - 1) + 0.5);
    printf(",\"%s_count\":%ld,\"%s_mean_%s\":%.1f,\"%s_p50_%s\":%lld,\"%s_p99_%s\":%lld,\"%s_max_%s\":%lld",
           prefix, n, prefix, unit, sum / n, prefix, unit, (long long) v[i50], prefix, unit, (long long) v[i99],
           prefix, unit, (long long) v[n - 1]);
}

static inline void raise_nofile(long want) {
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && (rlim_t) want > rl.rlim_cur) {
        rl.rlim_cur = (rlim_t) want < rl.rlim_max ? (rlim_t) want : rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

/* A command line the probe cannot run: what is wrong with it, then the usage line; exit 2. */
static inline void usage_fail(const char *usage, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%.*s: ", (int) strcspn(usage, " "), usage);   /* the probe's name: the usage's first word */
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nusage: %s\n", usage);
    exit(2);
}

/* The probe's mode, argv[1], one of `modes` (NULL-terminated): `PROBE --help` (or -h) prints the usage line on
 * stdout and exits 0; no mode, or one not in `modes`, is a usage error (usage_fail). */
static inline void usage_mode(const char *usage, int argc, char **argv, const char *const *modes) {
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        printf("usage: %s\n", usage);
        exit(0);
    }
    if (argc < 2) usage_fail(usage, "no mode given");
    char known[256] = "";
    for (int i = 0; modes[i] != NULL; i++) {
        if (strcmp(argv[1], modes[i]) == 0) return;
        snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", i ? ", " : "", modes[i]);
    }
    usage_fail(usage, "unknown mode '%s' (%s)", argv[1], known);
}

/* The words after the mode, for a usage_fail message: "2 arguments after 'scan'". */
static inline const char *arg_count(int argc) {
    static char buf[64];
    snprintf(buf, sizeof buf, "%d argument%s", argc - 2, argc - 2 == 1 ? "" : "s");
    return buf;
}

static inline long arg_long(const char *s, long lo, long hi, const char *what) {
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < lo || v > hi) {
        fail_missing("arguments", "see the probe's usage", "%s must be an integer in %ld..%ld, got '%s'", what, lo, hi, s);
    }
    return v;
}

/* A comma-separated list of integers in lo..hi into out (at most max of them), every one checked before the probe
 * measures anything; an empty item is an error, not skipped. Returns how many. */
static inline int arg_list(const char *s, long *out, int max, long lo, long hi, const char *what) {
    int n = 0;
    char *list = strdup(s), *rest = list, *tok;
    while ((tok = strsep(&rest, ",")) != NULL) {
        if (n == max) fail_missing("arguments", "", "at most %d values of %s", max, what);
        out[n++] = arg_long(tok, lo, hi, what);
    }
    free(list);
    return n;
}

#endif
