/*
 * sched_probe: what one task switch costs on this host (kernel/sched/core.c __schedule -> context_switch), the
 * way lmbench's lat_ctx measures it: two processes pinned to one CPU pass a byte back and forth over two
 * pipes, so every pass is a wake-up and a switch; the same pipe write + read done by one process, with no
 * switch, is taken off.
 *
 *   sched_probe ctxsw ROUNDS     fit set: ROUNDS round trips, in 5 batches; the median batch counts.
 *   sched_probe ring K1,K2,.. HOPS  fit set: for each K, K processes pinned to one CPU in a ring of pipes pass one
 *                                byte round it, at least HOPS hops in 5 batches (whole laps, 3 at least): a hop is a
 *                                pipe write, a wake-up and a switch to a task that last ran K switches ago. What a
 *                                hop costs beyond K = 2's is what a switch-in pays for the task's cache lines (its
 *                                task_struct, kernel stack, mm and page tables) that the K - 1 others evicted.
 */
#include "probe.h"
#include <sys/syscall.h>

static int64_t pipe_pair_ns(long rounds) {
    int p[2];
    char c = 'x';
    if (pipe2(p, O_CLOEXEC) != 0) fail_missing("pipes", "", "pipe: %s", strerror(errno));
    int64_t t0 = now_ns();
    for (long i = 0; i < rounds; i++) {
        if (write(p[1], &c, 1) != 1 || read(p[0], &c, 1) != 1) fail_missing("pipes", "", "pipe I/O: %s", strerror(errno));
    }
    int64_t t = now_ns() - t0;
    close(p[0]); close(p[1]);
    return t / rounds;
}

static int64_t round_trip_ns(long rounds, int cpu) {
    int a[2], b[2];
    char c = 'x';
    if (pipe2(a, O_CLOEXEC) != 0 || pipe2(b, O_CLOEXEC) != 0) fail_missing("pipes", "", "pipe: %s", strerror(errno));
    pid_t pid = fork_child();
    if (pid == 0) {
        pin_to_cpu(cpu);
        for (long i = 0; i < rounds; i++) {
            if (read(a[0], &c, 1) != 1 || write(b[1], &c, 1) != 1) _exit(1);
        }
        _exit(0);
    }
    cpu_set_t old;
    sched_getaffinity(0, sizeof old, &old);
    pin_to_cpu(cpu);
    int64_t t0 = now_ns();
    for (long i = 0; i < rounds; i++) {
        if (write(a[1], &c, 1) != 1 || read(b[0], &c, 1) != 1) fail_missing("pipes", "", "ping-pong: %s", strerror(errno));
    }
    int64_t t = now_ns() - t0;
    sched_setaffinity(0, sizeof old, &old);
    waitpid(pid, NULL, 0);
    close(a[0]); close(a[1]); close(b[0]); close(b[1]);
    return t / rounds;
}

/*
 * A ring of k processes on one CPU: ns a hop, per batch, into hop[5]. Member 0 makes the k pipes (pipe i leads into
 * member i) and forks the other members itself, so that they start side by side; each keeps two descriptors (its
 * pipe's read end, the next one's write end) and dies with member 0 (PR_SET_PDEATHSIG). Needs 2k + 8 descriptors:
 * the soft RLIMIT_NOFILE is raised within the hard one.
 */
static void ring(long k, long hops, int cpu, int64_t *hop) {
    struct rlimit nofile;
    getrlimit(RLIMIT_NOFILE, &nofile);
    rlim_t need = (rlim_t) (2 * k + 16);
    if (nofile.rlim_cur < need) {
        if (nofile.rlim_max != RLIM_INFINITY && nofile.rlim_max < need)
            fail_missing("file descriptors", "raise the hard limit (ulimit -Hn) or run calibrate --quick",
                         "a ring of %ld processes needs %ld descriptors; the hard limit is %ld", k, (long) need,
                         (long) nofile.rlim_max);
        nofile.rlim_cur = need;
        setrlimit(RLIMIT_NOFILE, &nofile);
    }
    int done[2];
    if (pipe2(done, O_CLOEXEC) != 0) fail_missing("pipes", "", "pipe: %s", strerror(errno));
    long laps = hops / k / 5 < 3 ? 3 : hops / k / 5;
    int64_t *shared = shared_alloc(5 * sizeof(int64_t));
    pid_t lead = fork_child();
    if (lead == 0) {   /* member 0: makes the ring, times the laps; its exit ends the ring */
        close(done[0]);
        int (*p)[2] = malloc((size_t) k * sizeof *p);
        pid_t *members = malloc((size_t) k * sizeof *members);
        if (p == NULL || members == NULL) _exit(1);
        for (long i = 0; i < k; i++) {
            if (pipe2(p[i], O_CLOEXEC) != 0) _exit(1);
        }
        for (long i = 1; i < k; i++) {
            pid_t pid = members[i] = fork_child();
            if (pid == 0) {
                /* its two ends above every pipe's, then one close_range for the rest (k members x 2k closes
                 * each would take seconds) */
                int in = fcntl(p[i][0], F_DUPFD_CLOEXEC, (int) (2 * k + 10));
                int out = fcntl(p[(i + 1) % k][1], F_DUPFD_CLOEXEC, (int) (2 * k + 11));
                if (in < 0 || out < 0 || syscall(SYS_close_range, 3U, (unsigned) (2 * k + 9), 0U) != 0) _exit(1);
                pin_to_cpu(cpu);
                char c;
                for (;;) {
                    if (read(in, &c, 1) != 1 || write(out, &c, 1) != 1) _exit(0);
                }
            }
        }
        int in = p[0][0], out = p[1 % k][1];
        for (long j = 0; j < k; j++) {
            if (p[j][0] != in) close(p[j][0]);
            if (p[j][1] != out) close(p[j][1]);
        }
        pin_to_cpu(cpu);
        char c = 'x';
        for (int b = -1; b < 5; b++) {   /* a lap first, so that every member has run and sleeps in read */
            int64_t t0 = now_ns();
            for (long l = 0; l < (b < 0 ? 1 : laps); l++) {
                if (write(out, &c, 1) != 1 || read(in, &c, 1) != 1) _exit(1);
            }
            if (b >= 0) shared[b] = (now_ns() - t0) / (laps * k);
        }
        /* the members reaped here, so that their CPU time reaches the probe's parent with ours (cutime: calibrate
         * counts it as the probe's, not as other work); killed members left to init would not */
        for (long i = 1; i < k; i++) kill(members[i], SIGKILL);
        for (long i = 1; i < k; i++) waitpid(members[i], NULL, 0);
        if (write(done[1], "d", 1) != 1) _exit(1);
        _exit(0);
    }
    close(done[1]);
    char d;
    int ok = read(done[0], &d, 1) == 1;
    int st;
    waitpid(lead, &st, 0);
    close(done[0]);
    if (!ok) fail_missing("processes", "raise the process limit (ulimit -u) or run calibrate --quick",
                          "a ring of %ld processes did not complete", k);
    memcpy(hop, shared, 5 * sizeof(int64_t));
    munmap(shared, 5 * sizeof(int64_t));
}

int main(int argc, char **argv) {
    probe_init("sched");
    static const char *usage = "sched_probe ctxsw ROUNDS | ring K1,K2,... HOPS";
    usage_mode(usage, argc, argv, (const char *const[]) { "ctxsw", "ring", NULL });
    if (strcmp(argv[1], "ring") == 0) {
        if (argc != 4) usage_fail(usage, "'ring' takes K1,K2,... and HOPS, got %s", arg_count(argc));
        long ks[16];
        int nk = arg_list(argv[2], ks, 16, 2, 20000, "K");
        long hops = arg_long(argv[3], 100, 10000000, "HOPS");
        int cpu = sched_getcpu();
        if (cpu < 0) cpu = 0;
        for (int i = 0; i < nk; i++) {
            int64_t hop[5];
            ring(ks[i], hops, cpu, hop);
            printf("{\"probe\":\"sched\",\"set\":\"fit\",\"load\":\"ring\",\"tasks\":%ld,\"hops\":%ld,\"cpu\":%d",
                   ks[i], hops, cpu);
            print_dist("hop", "ns", hop, 5);
            int64_t least = hop[0];   /* what another task's run on the CPU cannot raise: the fit's figure */
            for (int b = 1; b < 5; b++) least = hop[b] < least ? hop[b] : least;
            printf(",\"hop_min_ns\":%lld}\n", (long long) least);
        }
        return 0;
    }
    if (argc != 3) usage_fail(usage, "'ctxsw' takes ROUNDS, got %s", arg_count(argc));
    long rounds = arg_long(argv[2], 10, 10000000, "ROUNDS");
    int cpu = sched_getcpu();
    if (cpu < 0) cpu = 0;
    enum { BATCHES = 5 };
    int64_t rt[BATCHES], pp[BATCHES], sw[BATCHES];
    round_trip_ns(rounds / 10 + 1, cpu);   /* warm-up */
    for (int i = 0; i < BATCHES; i++) {
        pp[i] = pipe_pair_ns(rounds / BATCHES);
        rt[i] = round_trip_ns(rounds / BATCHES, cpu);
        sw[i] = (rt[i] - 2 * pp[i]) / 2;
    }
    printf("{\"probe\":\"sched\",\"set\":\"fit\",\"load\":\"context-switch\",\"rounds\":%ld,\"cpu\":%d", rounds, cpu);
    print_dist("round_trip", "ns", rt, BATCHES);
    print_dist("pipe_pair", "ns", pp, BATCHES);
    print_dist("context_switch", "ns", sw, BATCHES);
    printf("}\n");
    return 0;
}
