/*
 * proc_probe: the proc connector (drivers/connector/cn_proc.c, v6.6+ per-listener filters, commit
 * 2aa1f7a1f47c), pidfd monitoring (kernel/pid.c pidfd_open, pidfd_poll) and /proc scans (fs/proc/base.c
 * proc_pid_readdir, proc_pid_stat) on this host.
 *
 *   proc_probe fit PROCS           fit set: one listener at a time (all events, then EXIT only), each at two
 *                                  pacings (drained at every wake-up; woken at most every 2 ms), while PROCS
 *                                  fork+exec(/bin/true)+exit run one after another: the listener's CPU time,
 *                                  events and wake-ups, so per-event and per-wake-up costs can be separated.
 *                                  Then, where two CPUs are allowed, an EXIT-only listener pinned beside the
 *                                  spawner (both on the first CPU) and one pinned apart (on the second): what a
 *                                  listener that runs next on the exiting child's CPU pays more per wake-up
 *                                  (lines with "placement").
 *   proc_probe listeners PROCS     prediction set: an all-events, an EXIT-only and a NONZERO_EXIT listener at
 *                                  once while PROCS fork+exec+exit run (one in ten exits 1): CPU per listener.
 *                                  Every run binds its listeners one at a time in the order named (the
 *                                  placed runs: EXIT-only first), so an exit wakes them in reverse order.
 *   proc_probe pidfd PROCS         fit set: a monitor that forks PROCS children and follows each by pidfd:
 *                                  the CPU of pidfd_open + epoll_ctl per fork and of epoll_wait +
 *                                  waitid(P_PIDFD) + close per exit (the thread's CPU clock around them).
 *   proc_probe scan LIVE SCANS [fit]  /proc scans (readdir + open/read/close /proc/PID/stat) with LIVE extra
 *                                  sleeping processes: time per scan and per entry. A fit-set line with LIVE 0
 *                                  or with "fit" (the scanner alone on the machine either way), else prediction.
 *
 * The proc connector needs the initial user and pid namespaces (cn_proc.c cn_proc_mcast_ctl); listener
 * sockets keep the default receive buffer (they live in init_net, not in a namespace of ours).
 */
#include "probe.h"
#include <dirent.h>
#include <linux/connector.h>
#include <linux/netlink.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/syscall.h>

/* include/uapi/linux/cn_proc.h since v6.6; defined here for older userspace headers. */
enum probe_proc_cn_mcast_op { PROBE_MCAST_LISTEN = 1, PROBE_MCAST_IGNORE = 2 };
struct probe_proc_input { uint32_t mcast_op; uint32_t event_type; };
#define PROBE_EV_FORK 0x00000001u
#define PROBE_EV_EXEC 0x00000002u
#define PROBE_EV_EXIT 0x80000000u
#define PROBE_EV_NONZERO_EXIT 0x20000000u
#define PROBE_EV_ALL 0xe00003ffu   /* FORK|EXEC|UID|GID|SID|PTRACE|COMM|NONZERO_EXIT|COREDUMP|EXIT */

static int connector_listener(uint32_t events) {
    if (simulated_failure("connector")) {
        fail_missing("proc connector access", "run calibrate as root (the proc connector needs CAP_NET_ADMIN in the initial user namespace), or use --only uevent,lifecycle",
                     "PROC_CN_MCAST_LISTEN refused: %s", strerror(EPERM));
    }
    int fd = socket(PF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_CONNECTOR);
    if (fd < 0 || simulated_failure("proc-events")) {
        fail_missing("the proc connector (CONFIG_CONNECTOR, CONFIG_PROC_EVENTS)", "use a kernel built with CONFIG_PROC_EVENTS=y, or --only uevent,lifecycle",
                     "socket(NETLINK_CONNECTOR): %s", simulated_failure("proc-events") ? strerror(EPROTONOSUPPORT) : strerror(errno));
    }
    struct sockaddr_nl a = { .nl_family = AF_NETLINK, .nl_groups = CN_IDX_PROC, .nl_pid = 0 };
    if (bind(fd, (struct sockaddr *) &a, sizeof a) != 0) {
        fail_missing("proc connector access", "run calibrate as root, or use --only uevent,lifecycle", "bind(CN_IDX_PROC): %s", strerror(errno));
    }
    char buf[NLMSG_SPACE(sizeof(struct cn_msg) + sizeof(struct probe_proc_input))];
    memset(buf, 0, sizeof buf);
    struct nlmsghdr *h = (struct nlmsghdr *) buf;
    struct cn_msg *m = NLMSG_DATA(h);
    struct probe_proc_input *in = (struct probe_proc_input *) m->data;
    h->nlmsg_len = NLMSG_LENGTH(sizeof(struct cn_msg) + sizeof *in);
    h->nlmsg_type = NLMSG_DONE;
    h->nlmsg_pid = (uint32_t) getpid();
    m->id.idx = CN_IDX_PROC;
    m->id.val = CN_VAL_PROC;
    m->len = sizeof *in;
    in->mcast_op = PROBE_MCAST_LISTEN;
    in->event_type = events;
    if (send(fd, buf, h->nlmsg_len, 0) != (ssize_t) h->nlmsg_len) {
        fail_missing("proc connector access", "run calibrate as root, or use --only uevent,lifecycle",
                     "PROC_CN_MCAST_LISTEN: %s", strerror(errno));
    }
    return fd;
}

typedef struct { long events, wakeups, enobufs, exec_gaps; int64_t cpu, fork_to_exec_p50; volatile int done; } lis_stat_t;

#define MAX_GAPS 200000
/* struct proc_event (include/uapi/linux/cn_proc.h): what at 0, timestamp_ns at 8 (the kernel's ktime_get_ns() when
 * the event was made), then FORK's parent_pid, parent_tgid, child_pid, child_tgid and EXEC's process_pid,
 * process_tgid from 16 */
static uint32_t ev_u32(const unsigned char *e, size_t off) { uint32_t v; memcpy(&v, e + off, 4); return v; }
static int64_t ev_ts(const unsigned char *e) { uint64_t v; memcpy(&v, e + 8, 8); return (int64_t) v; }

/* Reads events until `stop` is readable and the queue is empty. pace_ns > 0: after a wake-up the listener
 * sleeps that long before draining (woken at most that often). Counts only events, not the subscribe ack. */
static void listen_until(int fd, int stop, int64_t pace_ns, lis_stat_t *st) {
    char buf[8192];
    /* the time from a process's FORK event to its EXEC (proc_fork_connector in copy_process, proc_exec_connector
     * at the end of the child's execve), by the kernel's own timestamps: the spawns run one after another, so the
     * last fork of the spawner (parent_tgid at 20) is the exec's */
    int64_t *gaps = calloc(MAX_GAPS, sizeof *gaps);
    long ngaps = 0;
    uint32_t spawner = (uint32_t) getppid();   /* the spawns' parent: other processes' forks are not ours */
    uint32_t fork_tgid = 0;
    int64_t fork_ts = 0;
    int64_t c0 = cpu_ns();
    long events = 0, wakeups = 0, enobufs = 0;
    int stopping = 0;
    for (;;) {
        struct pollfd p[2] = { { .fd = fd, .events = POLLIN }, { .fd = stop, .events = POLLIN } };
        if (poll(p, stopping ? 1 : 2, stopping ? 0 : -1) < 0) { if (errno == EINTR) continue; break; }
        if (!stopping && (p[1].revents & (POLLIN | POLLHUP))) stopping = 1;
        if (!(p[0].revents & POLLIN)) { if (stopping) break; continue; }
        wakeups++;
        if (pace_ns > 0) { struct timespec ts = { 0, pace_ns }; nanosleep(&ts, NULL); }
        for (;;) {
            ssize_t r = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
            if (r < 0) { if (errno == ENOBUFS) { enobufs++; continue; } break; }
            for (struct nlmsghdr *h = (struct nlmsghdr *) buf; NLMSG_OK(h, (unsigned) r); h = NLMSG_NEXT(h, r)) {
                struct cn_msg *m = NLMSG_DATA(h);
                if (m->len < 16) continue;   /* struct proc_event; the subscribe ack is shorter than none */
                events++;
                const unsigned char *e = (const unsigned char *) m->data;
                if (m->len >= 32 && ev_u32(e, 0) == PROBE_EV_FORK && ev_u32(e, 20) == spawner) {
                    fork_tgid = ev_u32(e, 28); fork_ts = ev_ts(e);
                } else if (m->len >= 24 && ev_u32(e, 0) == PROBE_EV_EXEC && fork_tgid != 0 && ev_u32(e, 20) == fork_tgid
                           && ngaps < MAX_GAPS && gaps) {
                    gaps[ngaps++] = ev_ts(e) - fork_ts;
                    fork_tgid = 0;
                }
            }
        }
    }
    st->events = events; st->wakeups = wakeups; st->enobufs = enobufs; st->cpu = cpu_ns() - c0;
    if (ngaps > 0) qsort(gaps, (size_t) ngaps, sizeof *gaps, cmp_i64);
    st->exec_gaps = ngaps;
    st->fork_to_exec_p50 = ngaps > 0 ? gaps[ngaps / 2] : -1;
}

/* PROCS fork + exec + exit, one after another; every tenth exits 1 when nonzero. */
static void spawn_procs(long procs, int nonzero) {
    for (long i = 0; i < procs; i++) {
        pid_t pid = fork_child();
        if (pid == 0) {
            const char *bin = (nonzero && i % 10 == 9) ? "/bin/false" : "/bin/true";
            execl(bin, bin, (char *) NULL);
            _exit(127);
        }
        waitpid(pid, NULL, 0);
    }
}

static const char *filter_name(uint32_t ev) {
    return ev == PROBE_EV_ALL ? "all" : ev == PROBE_EV_EXIT ? "exit" : ev == PROBE_EV_NONZERO_EXIT ? "nonzero-exit" : "other";
}

/* The first two CPUs this process may run on, or -1 for the second when it may run on one only. */
static void two_cpus(int *first, int *second) {
    cpu_set_t mine;
    *first = 0; *second = -1;
    if (sched_getaffinity(0, sizeof mine, &mine) != 0) return;
    int found = 0;
    for (int c = 0; c < CPU_SETSIZE && found < 2; c++) {
        if (!CPU_ISSET(c, &mine)) continue;
        if (found++ == 0) *first = c; else *second = c;
    }
}

static void pin_to(int cpu) {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    if (sched_setaffinity(0, sizeof one, &one) != 0) fail_missing("sched_setaffinity", "", "CPU %d: %s", cpu, strerror(errno));
}

/* Where a fit run pins its listener and spawner: not at all, both on the first CPU, or the listener on the second. */
enum placement { PLACE_FREE, PLACE_BESIDE, PLACE_APART };

/* Whether listener i of a placed run shares the spawner's CPU: the first one, in a run placed beside. */
static int beside_spawner(enum placement place, int i) { return place == PLACE_BESIDE && i == 0; }

/* Runs `count` listeners (one process each) while `procs` processes come and go; prints one line each. */
static void run_listeners_placed(const char *set, const uint32_t *filters, int count, long procs, int64_t pace_ns,
                                 int nonzero, enum placement place) {
    int first, second;
    two_cpus(&first, &second);
    if (place != PLACE_FREE && second < 0) fail_missing("a second CPU to pin a listener to", "", "the probe may run on one CPU only");
    cpu_set_t spawner_mask;
    if (sched_getaffinity(0, sizeof spawner_mask, &spawner_mask) != 0)
        fail_missing("sched_getaffinity", "", "%s", strerror(errno));
    lis_stat_t *st = shared_alloc(sizeof(lis_stat_t) * (size_t) count);
    int ready[2], stop[2];
    if (pipe2(ready, O_CLOEXEC) != 0 || pipe2(stop, O_CLOEXEC) != 0) fail_missing("pipes", "", "pipe: %s", strerror(errno));
    pid_t *lis = calloc((size_t) count, sizeof *lis);
    for (int i = 0; i < count; i++) {
        /* One bind at a time, in the order given: the proc connector wakes its listeners newest bind first
         * (netlink's mc_list, hlist_add_head), and which one an exit wakes last decides who waits behind the
         * exiting child. Bound in a race, that order flipped from run to run and gave the figures two modes. */
        if (i > 0) ready_wait(ready[0], 1);
        lis[i] = fork_child();
        if (lis[i] == 0) {
            close(stop[1]);
            if (place != PLACE_FREE) pin_to(beside_spawner(place, i) ? first : second);
            int fd = connector_listener(filters[i]);
            if (write(ready[1], "r", 1) != 1) _exit(1);
            listen_until(fd, stop[0], pace_ns, &st[i]);
            _exit(0);
        }
    }
    close(ready[1]);
    ready_wait(ready[0], 1);   /* the last one's */
    long settle_ms = settle(5000);   /* an earlier load's processes and netns may still be being dismantled */
    if (place != PLACE_FREE) pin_to(first);   /* the spawner, and so each child it forks */
    int64_t t0 = now_ns();
    spawn_procs(procs, nonzero);
    int64_t spawn = now_ns() - t0;
    if (place != PLACE_FREE && sched_setaffinity(0, sizeof spawner_mask, &spawner_mask) != 0)
        fail_missing("sched_setaffinity", "", "restoring the spawner's CPUs: %s", strerror(errno));
    close(stop[1]);
    for (int i = 0; i < count; i++) {
        int s;
        waitpid(lis[i], &s, 0);
        if (!WIFEXITED(s) || WEXITSTATUS(s) != 0) exit(WIFEXITED(s) ? WEXITSTATUS(s) : 1);
    }
    for (int i = 0; i < count; i++) {
        printf("{\"probe\":\"proc\",\"set\":\"%s\",\"load\":\"listener\",\"filter\":\"%s\",\"listeners_at_once\":%d,"
               "\"processes\":%ld,\"pace_ns\":%lld,\"events\":%ld,\"wakeups\":%ld,\"enobufs\":%ld,\"cpu_ns\":%lld,\"spawn_wall_ns\":%lld,"
               "\"settle_ms\":%ld",
               set, filter_name(filters[i]), count, procs, (long long) pace_ns, st[i].events, st[i].wakeups,
               st[i].enobufs, (long long) st[i].cpu, (long long) spawn, settle_ms);
        if (place != PLACE_FREE)
            printf(",\"placement\":\"%s\"", beside_spawner(place, i) ? "beside" : "apart");
        if (st[i].exec_gaps > 0)   /* a listener that sees FORK and EXEC */
            printf(",\"fork_to_exec_count\":%ld,\"fork_to_exec_p50_ns\":%lld", st[i].exec_gaps,
                   (long long) st[i].fork_to_exec_p50);
        printf("}\n");
    }
    close(ready[0]); close(stop[0]);
}

static void run_listeners(const char *set, const uint32_t *filters, int count, long procs, int64_t pace_ns, int nonzero) {
    run_listeners_placed(set, filters, count, procs, pace_ns, nonzero, PLACE_FREE);
}

/* This thread's CPU time, ns: exact at the read (task_sched_runtime), so it can time a few system calls. */
static int64_t thread_cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (int64_t) ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* A monitor forking `procs` children and following each by pidfd: the CPU of its pidfd calls, timed around
 * them with the thread's CPU clock (waiting in epoll_wait is not CPU): pidfd_open + epoll_ctl(ADD) per fork,
 * epoll_wait + waitid(P_PIDFD) + close per exit. */
static void pidfd_monitor(long procs, int64_t *fork_side, int64_t *exit_side) {
    int ep = epoll_create1(EPOLL_CLOEXEC);
    for (long i = 0; i < procs; i++) {
        pid_t pid = fork_child();
        if (pid == 0) { execl("/bin/true", "true", (char *) NULL); _exit(127); }
        int64_t c0 = thread_cpu_ns();
        int pfd = (int) syscall(SYS_pidfd_open, pid, 0);
        if (pfd < 0) fail_missing("pidfd_open (kernel >= 5.3)", "", "pidfd_open: %s", strerror(errno));
        struct epoll_event ev = { .events = EPOLLIN, .data.fd = pfd };
        epoll_ctl(ep, EPOLL_CTL_ADD, pfd, &ev);
        int64_t c1 = thread_cpu_ns();
        struct epoll_event out;
        while (epoll_wait(ep, &out, 1, -1) < 0 && errno == EINTR) { }
        siginfo_t si;
        waitid(P_PIDFD, (id_t) pfd, &si, WEXITED);
        close(pfd);
        int64_t c2 = thread_cpu_ns();
        if (fork_side) { fork_side[i] = c1 - c0; exit_side[i] = c2 - c1; }
    }
    close(ep);
}

static long live_children(long n, pid_t **out) {
    pid_t *kids = calloc((size_t) n, sizeof *kids);
    long made = 0;
    for (; made < n; made++) {
        pid_t pid = fork();
        if (pid < 0) break;
        if (pid == 0) { prctl(PR_SET_PDEATHSIG, SIGKILL); for (;;) pause(); }
        kids[made] = pid;
    }
    *out = kids;
    return made;
}

static void scan(long live, long scans, int fit) {
    pid_t *kids;
    long made = live_children(live, &kids);
    char path[300], buf[1024];
    int64_t *per = calloc((size_t) scans, sizeof *per), *cpu = calloc((size_t) scans, sizeof *cpu);
    long entries = 0;
    for (long s = -1; s < scans; s++) {   /* s = -1: warm-up scan */
        int64_t t0 = now_ns(), c0 = thread_cpu_ns();
        long n = 0;
        DIR *d = opendir("/proc");
        struct dirent *e;
        while (d && (e = readdir(d)) != NULL) {
            if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
            snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
            int fd = open(path, O_RDONLY | O_CLOEXEC);
            if (fd >= 0) { ssize_t r = read(fd, buf, sizeof buf); (void) r; close(fd); }
            n++;
        }
        if (d) closedir(d);
        if (s >= 0) { per[s] = now_ns() - t0; cpu[s] = thread_cpu_ns() - c0; entries = n; }
    }
    for (long i = 0; i < made; i++) kill(kids[i], SIGKILL);
    for (long i = 0; i < made; i++) waitpid(kids[i], NULL, 0);
    printf("{\"probe\":\"proc\",\"set\":\"%s\",\"load\":\"proc-scan\",\"live_requested\":%ld,\"live_made\":%ld,\"entries\":%ld,\"scans\":%ld",
           fit ? "fit" : "prediction", live, made, entries, scans);
    print_dist("scan", "ns", per, scans);
    print_dist("scan_cpu", "ns", cpu, scans);
    printf("}\n");
}

int main(int argc, char **argv) {
    probe_init("proc");
    static const char *usage = "proc_probe fit PROCS | listeners PROCS | pidfd PROCS | scan LIVE SCANS [fit]";
    usage_mode(usage, argc, argv, (const char *const[]) { "fit", "listeners", "pidfd", "scan", NULL });
    int want = strcmp(argv[1], "scan") == 0 ? 4 : 3;
    if (argc != want && !(want == 4 && argc == 5 && strcmp(argv[4], "fit") == 0))
        usage_fail(usage, "'%s' takes %s, got %s%s", argv[1], want == 4 ? "LIVE SCANS [fit]" : "PROCS", arg_count(argc),
                   want == 4 && argc == 5 ? " (the third must be 'fit')" : "");
    if (strcmp(argv[1], "fit") == 0) {
        long procs = arg_long(argv[2], 1, 100000, "PROCS");
        static const uint32_t all[] = { PROBE_EV_ALL }, ex[] = { PROBE_EV_EXIT };
        run_listeners("fit", all, 1, procs, 0, 0);
        run_listeners("fit", ex, 1, procs, 0, 0);
        run_listeners("fit", all, 1, procs, 2000000, 0);
        run_listeners("fit", ex, 1, procs, 2000000, 0);
        int first, second;
        two_cpus(&first, &second);
        if (second >= 0) {   /* beside and apart, three rounds, interleaved: the host's mode moves between sittings */
            static const uint32_t pair[] = { PROBE_EV_EXIT, PROBE_EV_ALL };
            for (int round = 0; round < 3; round++) {
                run_listeners_placed("fit", pair, 2, procs, 0, 0, PLACE_BESIDE);
                run_listeners_placed("fit", pair, 2, procs, 0, 0, PLACE_APART);
            }
        }
    } else if (strcmp(argv[1], "listeners") == 0) {
        long procs = arg_long(argv[2], 1, 100000, "PROCS");
        static const uint32_t three[] = { PROBE_EV_ALL, PROBE_EV_EXIT, PROBE_EV_NONZERO_EXIT };
        run_listeners("prediction", three, 3, procs, 0, 1);
    } else if (strcmp(argv[1], "pidfd") == 0) {
        long procs = arg_long(argv[2], 1, 100000, "PROCS");
        pidfd_monitor(procs / 10 + 1, NULL, NULL);   /* warm-up */
        int64_t *f = calloc((size_t) procs, 8), *e = calloc((size_t) procs, 8);
        pidfd_monitor(procs, f, e);
        printf("{\"probe\":\"proc\",\"set\":\"fit\",\"load\":\"pidfd\",\"processes\":%ld", procs);
        print_dist("pidfd_fork_cpu", "ns", f, procs);
        print_dist("pidfd_exit_cpu", "ns", e, procs);
        printf("}\n");
    } else if (strcmp(argv[1], "scan") == 0) {
        scan(arg_long(argv[2], 0, 100000, "LIVE"), arg_long(argv[3], 1, 1000, "SCANS"), argc == 5 || atol(argv[2]) == 0);
    }
    return 0;
}
