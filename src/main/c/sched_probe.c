/*
 * sched_probe: what one task switch costs on this host (kernel/sched/core.c __schedule -> context_switch), the
 * way lmbench's lat_ctx measures it: two processes pinned to one CPU pass a byte back and forth over two
 * pipes, so every pass is a wake-up and a switch; the same pipe write + read done by one process, with no
 * switch, is taken off.
 *
 *   sched_probe ctxsw ROUNDS     fit set: ROUNDS round trips, in 5 batches; the median batch counts.
 */
#include "probe.h"

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

int main(int argc, char **argv) {
    probe_init("sched");
    static const char *usage = "sched_probe ctxsw ROUNDS";
    usage_mode(usage, argc, argv, (const char *const[]) { "ctxsw", NULL });
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
