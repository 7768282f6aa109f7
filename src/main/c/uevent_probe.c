/*
 * uevent_probe: the uevent injection path of this host's kernel (lib/kobject_uevent.c uevent_net_rcv_skb ->
 * uevent_net_broadcast -> netlink_broadcast, net/netlink/af_netlink.c do_one_broadcast per bound socket).
 *
 *   uevent_probe fit L1,L2,... SENDS    fit set: one injector + its listener (one process, one task at a
 *                                       time) in their own user+net namespace, with L extra listener sockets
 *                                       bound in ANOTHER netns (walked by netlink_broadcast, skipped by
 *                                       do_one_broadcast's net_eq check). Per L: send, recv and the
 *                                       injector's user-space time per loop.
 *   uevent_probe wake - SENDS           fit set: the send when the listener is asleep in recvmsg in its own process
 *                                       (sends 200 us apart): the wake-up the send does (sk_data_ready ->
 *                                       try_to_wake_up), which the fit line above, whose listener is awake, lacks.
 *   uevent_probe exit - CHILDREN        fit set: CHILDREN processes shaped as tc1's injectors, one at a time: the
 *                                       CPU of each one's exit and of its reaping (what a load's finished
 *                                       injectors cost the machine while the others still send).
 *   uevent_probe pair - SENDS           fit set: one injector and one listener, each its own process, in their
 *                                       own user+net namespace (tc1's shape with N=1: nothing contends, each
 *                                       can have a CPU): their CPU clocks per send and per message, and the
 *                                       listener's wake-ups. The walk above keeps both ends in one process, so
 *                                       its skbs are freed hot on the CPU that allocated them.
 *   uevent_probe tc1 N SENDS            prediction set: N injectors, each in its own user+net namespace with
 *                                       one listener process there, released at once; every send timed by
 *                                       its injector (clock read just before sendto and just after it). Each
 *                                       injector is the process that made its namespaces, so N processes exit
 *                                       during the load, not 2N.
 *   uevent_probe reorder M SENDS        prediction set: M injectors into ONE netns with one listener: the
 *                                       share of messages received with a SEQNUM lower than one seen before.
 *   uevent_probe stop - ROUNDS          fit set: tc1's listener loop alone, ROUNDS times: a listener process in
 *                                       its own user+net namespace receives one uevent, falls asleep in poll
 *                                       again, and is woken by the close of the stop pipe it polls too (tc1's
 *                                       end: pipe_release -> wake_up_interruptible_sync_poll on the pipe's
 *                                       rd_wait): its CPU from just before that last poll to the loop's end.
 *   uevent_probe remote - SENDS         fit set: one injector pinned to a CPU and a reader pinned to another that
 *                                       drains without sleeping, in their own user+net namespace: the send's
 *                                       spread when its skbs are freed on another CPU, as every contended load's
 *                                       listeners free them (the walk above frees each at once where it was made).
 *   uevent_probe idle K1,K2,.. SECONDS  fit set: for each K, K processes asleep, each in its own user+net
 *                                       namespace, and the machine's busy time over SECONDS (/proc/stat): what
 *                                       the host runs beside a load for the netns alive (an agent, a monitor),
 *                                       with the kernel threads', kdamond's and PID 1's share.
 *
 * The injected message: a 16-byte nlmsghdr (NLM_F_REQUEST, type >= NLMSG_MIN_TYPE, so netlink_rcv_skb
 * hands it to uevent_net_rcv_skb) and "add@/devices/virtual/net/probeN\0ACTION=add\0...". The kernel
 * appends "SEQNUM=n" (atomic64_inc_return(&uevent_seqnum) since v6.9: no lock on this path).
 */
#include "probe.h"
#include <dirent.h>
#include <linux/netlink.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>

#ifndef NETLINK_KOBJECT_UEVENT
#define NETLINK_KOBJECT_UEVENT 15
#endif

#define RCVBUF_BYTES (64 << 20)   /* SO_RCVBUFFORCE inside our own netns only: no drop in a burst */

static int uevent_socket(int listen) {
    int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);
    if (fd < 0) fail_missing("uevent netlink sockets", "raise ulimit -n", "socket(NETLINK_KOBJECT_UEVENT): %s", strerror(errno));
    struct sockaddr_nl a = { .nl_family = AF_NETLINK, .nl_groups = listen ? 1 : 0 };
    if (bind(fd, (struct sockaddr *) &a, sizeof a) != 0) fail_missing("uevent netlink sockets", "", "bind: %s", strerror(errno));
    if (listen) {
        int sz = RCVBUF_BYTES;
        if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof sz) != 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof sz);
    }
    return fd;
}

/* Builds message i into buf (the injector's user-space work between two sends); returns its length. */
static size_t build_message(char *buf, size_t cap, long injector, long i) {
    struct nlmsghdr *h = (struct nlmsghdr *) buf;
    char *p = buf + NLMSG_HDRLEN;
    int n = snprintf(p, cap - NLMSG_HDRLEN, "add@/devices/virtual/net/probe%ld", injector);
    p += n + 1;
    n = snprintf(p, cap - (size_t) (p - buf), "ACTION=add");
    p += n + 1;
    n = snprintf(p, cap - (size_t) (p - buf), "DEVPATH=/devices/virtual/net/probe%ld", injector);
    p += n + 1;
    n = snprintf(p, cap - (size_t) (p - buf), "SUBSYSTEM=net");
    p += n + 1;
    n = snprintf(p, cap - (size_t) (p - buf), "PROBE_SEQ=%ld", i);
    p += n + 1;
    size_t len = (size_t) (p - buf);
    memset(h, 0, sizeof *h);
    h->nlmsg_len = (uint32_t) len;
    h->nlmsg_type = NLMSG_MIN_TYPE;
    h->nlmsg_flags = NLM_F_REQUEST;
    return len;
}

static void send_one(int fd, const char *msg, size_t len) {
    struct sockaddr_nl k = { .nl_family = AF_NETLINK };
    if (sendto(fd, msg, len, 0, (struct sockaddr *) &k, sizeof k) != (ssize_t) len) {
        if (errno == EPERM)
            fail_missing("CAP_SYS_ADMIN over the netns's user namespace", "run on a kernel >= 4.17 with user namespaces",
                         "uevent injection refused: %s", strerror(errno));
        fail_missing("uevent injection (kernel >= 4.17)", "", "sendto(uevent socket): %s", strerror(errno));
    }
}

/* SEQNUM of a received uevent, or -1. */
static long long seqnum_of(const char *buf, ssize_t n) {
    for (ssize_t i = 0; i + 7 < n; i++) {
        if (buf[i] == 'S' && (i == 0 || buf[i - 1] == '\0') && memcmp(buf + i, "SEQNUM=", 7) == 0)
            return atoll(buf + i + 7);
    }
    return -1;
}

/* Opens and binds `n` uevent listener sockets to group 1 in the calling process, raising its descriptor limit. */
static void bind_listeners(long n, long of) {
    raise_nofile(n + 64);
    for (long i = 0; i < n; i++) {
        int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);
        struct sockaddr_nl a = { .nl_family = AF_NETLINK, .nl_groups = 1 };
        if (fd < 0 || bind(fd, (struct sockaddr *) &a, sizeof a) != 0) {
            fail_missing("file descriptors", "raise the hard limit of ulimit -n", "listener socket %ld of %ld: %s",
                         i + 1, of, strerror(errno));
        }
    }
}

/* A process in a user+net namespace of its own holding `extra` uevent listener sockets bound to group 1: every
 * broadcast walks them (they sit on the one mc_list) and skips them (another netns). Where RLIMIT_NOFILE's hard limit
 * is below `extra` + 64, it forks helpers in the same netns that hold the rest, each within that limit, so the walk's
 * size does not depend on the limit. Returns once they are all bound; killing the holder kills its helpers
 * (PR_SET_PDEATHSIG). */
static pid_t hold_sockets(long extra, int ready[2]) {
    pid_t holder = fork_child();
    if (holder == 0) {
        enter_userns_netns();
        struct rlimit rl;
        long per = extra;
        if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_max != RLIM_INFINITY && (long) rl.rlim_max - 64 < per)
            per = (long) rl.rlim_max - 64;
        if (per < 1) fail_missing("file descriptors", "raise the hard limit of ulimit -n", "RLIMIT_NOFILE %ld",
                                  (long) rl.rlim_max);
        int helpers_ready[2];
        if (pipe2(helpers_ready, O_CLOEXEC) != 0) fail_missing("pipes", "", "pipe: %s", strerror(errno));
        long helpers = 0;
        for (long from = per; from < extra; from += per, helpers++) {
            if (fork_child() == 0) {
                bind_listeners(extra - from < per ? extra - from : per, extra);
                if (write(helpers_ready[1], "h", 1) != 1) _exit(1);
                pause();
                _exit(0);
            }
        }
        bind_listeners(per, extra);
        ready_wait(helpers_ready[0], helpers);
        if (write(ready[1], "r", 1) != 1) _exit(1);
        pause();
        _exit(0);
    }
    ready_wait(ready[0], 1);
    return holder;
}

/* ---- fit: one task at a time ---- */
static void fit_one(long extra, long sends) {
    int ready[2];
    if (pipe2(ready, O_CLOEXEC) != 0) fail_missing("pipes", "", "pipe: %s", strerror(errno));
    pid_t holder = extra > 0 ? hold_sockets(extra, ready) : 0;
    int out[2];
    if (pipe2(out, O_CLOEXEC) != 0) fail_missing("pipes", "", "pipe: %s", strerror(errno));
    pid_t inj = fork_child();
    if (inj == 0) {
        enter_userns_netns();
        int lfd = uevent_socket(1), sfd = uevent_socket(0);
        int64_t *send_t = calloc((size_t) sends, sizeof *send_t), *recv_t = calloc((size_t) sends, sizeof *recv_t),
                *user = calloc((size_t) sends, sizeof *user), *handle = calloc((size_t) sends, sizeof *handle);
        char msg[512], rbuf[4096];
        long warm = sends / 10 + 10;
        for (long i = -warm; i < sends; i++) {
            int64_t u0 = now_ns();
            size_t len = build_message(msg, sizeof msg, 0, i);
            int64_t t0 = now_ns();
            send_one(sfd, msg, len);
            int64_t t1 = now_ns();
            ssize_t r = recv(lfd, rbuf, sizeof rbuf, 0);
            int64_t t2 = now_ns();
            long long seq = r > 0 ? seqnum_of(rbuf, r) : -1;   /* the listener's handling: find SEQNUM */
            int64_t t3 = now_ns();
            if (seq < 0) fail_missing("uevent delivery", "", "listener received no uevent: %s", strerror(errno));
            if (i >= 0) { user[i] = t0 - u0; send_t[i] = t1 - t0; recv_t[i] = t2 - t1; handle[i] = t3 - t2; }
        }
        printf("{\"probe\":\"uevent\",\"set\":\"fit\",\"load\":\"broadcast-walk\",\"extra_sockets\":%ld,\"sends\":%ld", extra, sends);
        print_dist("send", "ns", send_t, sends);
        print_dist("recv", "ns", recv_t, sends);
        print_dist("user", "ns", user, sends);
        print_dist("handle", "ns", handle, sends);
        printf("}\n");
        fflush(stdout);
        _exit(0);
    }
    int st;
    waitpid(inj, &st, 0);
    if (holder > 0) { kill(holder, SIGKILL); waitpid(holder, NULL, 0); }
    close(ready[0]); close(ready[1]); close(out[0]); close(out[1]);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) exit(WIFEXITED(st) ? WEXITSTATUS(st) : 1);
}

/* ---- tc1: N injectors, each with its own netns and listener ---- */
typedef struct {
    int64_t start, end, cpu;
    long received, out_of_order, listener_wakeups, listener_sleeps, listener_overruns;
    int64_t listener_cpu;
    int64_t cpu_at_release;   /* the injector process's CPU clock when the gate opened for it */
} inj_stat_t;

/* The calling process's voluntary context switches so far: each time it blocked (asleep in poll). */
static long voluntary_switches(void) {
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_nvcsw : 0;
}


/* A listener process: reads uevents until `stop` reaches EOF (every injector done) and its queue is empty:
 * poll, then recv until EAGAIN (one wake-up per poll that found data); counts the ones whose SEQNUM is below
 * the highest seen, and the overruns recv reports (ENOBUFS: the socket dropped messages). With `stop_cpu` not
 * NULL (the stop mode only: tc1 reads no clock in its loop), *stop_cpu is its CPU from just before the last
 * poll that slept to the end: the wake-up by the stop. */
static void listener_loop(int fd, int stop, inj_stat_t *st, int64_t *stop_cpu) {
    char buf[4096];
    long long hi = -1;
    int64_t c0 = cpu_ns();
    long got = 0, ooo = 0, wakeups = 0, overruns = 0;
    /* sleeps: how often poll blocked before data came (a wake-up by a send): the voluntary context switches over
     * the loop, read once at each end (not per drain: the reads would count as the listener's CPU), less the
     * sleep the stop pipe ended. A drain cycle (`wakeups`) also starts when data was already there. */
    long nv0 = voluntary_switches();
    int stopping = 0, stop_woke = 0;
    for (;;) {
        struct pollfd p[2] = { { .fd = fd, .events = POLLIN }, { .fd = stop, .events = POLLIN } };
        if (stop_cpu != NULL && !stopping) *stop_cpu = cpu_ns();
        if (poll(p, stopping ? 1 : 2, stopping ? 0 : -1) < 0) { if (errno == EINTR) continue; break; }
        if (!stopping && (p[1].revents & (POLLIN | POLLHUP))) {
            stopping = 1;
            stop_woke = !(p[0].revents & (POLLIN | POLLERR));   /* it slept until the stop, not until a message */
        }
        if (!(p[0].revents & (POLLIN | POLLERR))) { if (stopping) break; continue; }
        wakeups++;
        for (;;) {
            ssize_t r = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
            if (r < 0) { if (errno == ENOBUFS) { overruns++; continue; } break; }
            long long s = seqnum_of(buf, r);
            if (s < 0) continue;
            if (s < hi) ooo++; else hi = s;
            got++;
        }
    }
    st->received = got;
    st->out_of_order = ooo;
    st->listener_wakeups = wakeups;
    st->listener_overruns = overruns;
    int64_t c1 = cpu_ns();
    st->listener_cpu = c1 - c0;
    if (stop_cpu != NULL) *stop_cpu = c1 - *stop_cpu;
    long sleeps = voluntary_switches() - nv0 - stop_woke;
    st->listener_sleeps = sleeps < 0 ? 0 : sleeps;
}

/* Joins the user (unless root in the initial one, who keeps CAP_NET_ADMIN for SO_RCVBUFFORCE) and network
 * namespaces of process `pid`. */
static void join_namespaces_of(pid_t pid) {
    char path[64];
    if (geteuid() != 0) {
        snprintf(path, sizeof path, "/proc/%d/ns/user", (int) pid);
        int u = open(path, O_RDONLY | O_CLOEXEC);
        if (u < 0 || setns(u, CLONE_NEWUSER) != 0) fail_missing("user namespaces", "", "setns(%s): %s", path, strerror(errno));
        close(u);
    }
    snprintf(path, sizeof path, "/proc/%d/ns/net", (int) pid);
    int n = open(path, O_RDONLY | O_CLOEXEC);
    if (n < 0 || setns(n, CLONE_NEWNET) != 0) fail_missing("network namespaces", "", "setns(%s): %s", path, strerror(errno));
    close(n);
}

/* One injector: its socket, the start gate, SENDS timed sends into its netns; then it exits (never returns). Its
 * CPU clock is read at each end of the loop, so its exit (exit_mmap, the socket's close) is not in st->cpu. */
__attribute__((noreturn)) static void inject(long id, long sends, int64_t *lat, inj_stat_t *st, int ready_wr, gate_t go) {
    int sfd = uevent_socket(0);
    char msg[512];
    if (write(ready_wr, "r", 1) != 1) _exit(1);
    gate_wait(go);
    int64_t *mine = lat + id * sends;
    st[id].start = now_ns();
    int64_t c0 = cpu_ns();
    st[id].cpu_at_release = c0;
    for (long i = 0; i < sends; i++) {
        size_t len = build_message(msg, sizeof msg, id, i);
        int64_t t0 = now_ns();
        send_one(sfd, msg, len);
        mine[i] = now_ns() - t0;
    }
    st[id].cpu = cpu_ns() - c0;
    st[id].end = now_ns();
    _exit(0);
}

/* A process exit frees through RCU (kernel/exit.c release_task -> put_task_struct_rcu_user -> call_rcu of
 * delayed_put_task_struct; kernel/fork.c thread_stack_delayed_free -> call_rcu of thread_stack_free_rcu; a netlink
 * socket's deferred_put_nlk_sk, ...). The grace-period kthread (rcu_preempt, kernel/rcu/tree.c rcu_gp_kthread: its
 * rcu_gp_init and rcu_gp_cleanup) runs the grace periods, ksoftirqd/N the callbacks (RCU_SOFTIRQ, rcu_do_batch) on
 * the CPU that queued them, and a stack the per-CPU cache does not take is vfree()d from that softirq, which defers
 * it (mm/vmalloc.c vfree -> vfree_atomic) to delayed_vfree_work on kworker/N. Their run time and runs
 * (/proc/PID/schedstat, CONFIG_SCHED_INFO), summed per class over the kernel threads (PF_KTHREAD).
 * Two more classes are no netns work but share the CPUs with it: DAMON's monitor (mm/damon/core.c kdamond_fn, whose
 * access checks walk the rmap of the pages it samples) and every thread of PID 1, the host's init (a VM's agent
 * may run there), so that the line can say whose the machine's busy time outside the probe's processes is. */
enum { KT_GP, KT_SOFTIRQ, KT_KWORKER, KT_KDAMOND, KT_INIT, KT_CLASSES };
#define KT_MAX 4096
typedef struct { int pid, cls; unsigned long long start; int64_t ns, runs; } kthread_t;
typedef struct { int n; kthread_t k[KT_MAX]; } kthreads_t;
typedef struct { int64_t ns[KT_CLASSES]; int64_t runs[KT_CLASSES]; } kthread_sums_t;

static int kthread_class(const char *comm) {
    if (strcmp(comm, "rcu_preempt") == 0 || strcmp(comm, "rcu_sched") == 0) return KT_GP;
    if (strncmp(comm, "ksoftirqd/", 10) == 0) return KT_SOFTIRQ;
    if (strncmp(comm, "kworker/", 8) == 0 && comm[8] >= '0' && comm[8] <= '9') return KT_KWORKER;   /* per-CPU */
    if (strncmp(comm, "kdamond.", 8) == 0) return KT_KDAMOND;
    return -1;
}

/* One task's figures from DIR (/proc/PID or /proc/1/task/TID): its comm, flags and start time from stat, its run
 * time and runs from schedstat. Returns 0 when either cannot be read (the task went away). */
static int task_read(const char *dir, char *comm, size_t comm_len, unsigned long *flags, unsigned long long *start,
                     unsigned long long *run, unsigned long long *slices) {
    char path[300], buf[512];
    snprintf(path, sizeof path, "%s/stat", dir);
    FILE *f = fopen(path, "re");
    if (!f) return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char *open = strchr(buf, '('), *close = strrchr(buf, ')');
    if (!open || !close || close < open) return 0;
    *close = 0;
    snprintf(comm, comm_len, "%s", open + 1);
    /* after ") ": state ppid pgrp session tty_nr tpgid flags, ..., starttime (field 22): a reused pid is another
     * thread */
    if (sscanf(close + 2, "%*c %*d %*d %*d %*d %*d %lu %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu",
               flags, start) != 2) return 0;
    snprintf(path, sizeof path, "%s/schedstat", dir);
    f = fopen(path, "re");
    if (!f) return 0;
    unsigned long long wait = 0;
    int got = fscanf(f, "%llu %llu %llu", run, &wait, slices);
    fclose(f);
    return got == 3;
}

/* Returns 0, saying why on stderr, when no kernel thread of the three classes can be read (no CONFIG_SCHED_INFO, or
 * a PID namespace that shows none) or there are more than KT_MAX: the line then leaves the fields out. */
static int kthreads_read(kthreads_t *k) {
    k->n = 0;
    DIR *d = opendir("/proc");
    if (!d) return 0;
    struct dirent *e;
    int full = 0;
    char dir[300], comm[64];
    unsigned long flags;
    unsigned long long start, run, slices;
    while ((e = readdir(d)) != NULL) {
        if (k->n == KT_MAX) { full = 1; break; }
        if (e->d_name[0] < '1' || e->d_name[0] > '9') continue;
        snprintf(dir, sizeof dir, "/proc/%s", e->d_name);
        if (!task_read(dir, comm, sizeof comm, &flags, &start, &run, &slices) || !(flags & 0x00200000UL)) continue;
        int c = kthread_class(comm);
        if (c < 0) continue;
        k->k[k->n++] = (kthread_t) { atoi(e->d_name), c, start, (int64_t) run, (int64_t) slices };
    }
    closedir(d);
    int kernel_threads = k->n;
    /* PID 1's threads, each on its own: a thread may come and go between two reads */
    d = opendir("/proc/1/task");
    while (d && (e = readdir(d)) != NULL) {
        if (k->n == KT_MAX) { full = 1; break; }
        if (e->d_name[0] < '1' || e->d_name[0] > '9') continue;
        snprintf(dir, sizeof dir, "/proc/1/task/%s", e->d_name);
        if (!task_read(dir, comm, sizeof comm, &flags, &start, &run, &slices)) continue;
        k->k[k->n++] = (kthread_t) { atoi(e->d_name), KT_INIT, start, (int64_t) run, (int64_t) slices };
    }
    if (d) closedir(d);
    if (full) {
        fprintf(stderr, "uevent_probe: more than %d kernel threads of interest; their times are left out\n",
                KT_MAX);
        return 0;
    }
    if (kernel_threads == 0)
        fprintf(stderr, "uevent_probe: no rcu_preempt, ksoftirqd or per-CPU kworker readable in /proc (a PID"
                " namespace, or no /proc/PID/schedstat); the kernel threads' times are left out\n");
    return kernel_threads > 0;
}

/* What the kernel threads of each class ran between two reads: a thread in both counts its difference, one that
 * appeared (a new kworker) all it ran, one that went away nothing (its last figures cannot be read). */
static kthread_sums_t kthreads_diff(const kthreads_t *a, const kthreads_t *b) {
    kthread_sums_t s;
    memset(&s, 0, sizeof s);
    for (int i = 0; i < b->n; i++) {
        int64_t ns = b->k[i].ns, runs = b->k[i].runs;
        for (int j = 0; j < a->n; j++) {
            if (a->k[j].pid == b->k[i].pid && a->k[j].start == b->k[i].start) {
                ns -= a->k[j].ns; runs -= a->k[j].runs; break;
            }
        }
        s.ns[b->k[i].cls] += ns;
        s.runs[b->k[i].cls] += runs;
    }
    return s;
}

static void print_kthreads(const char *prefix, const kthreads_t *a, const kthreads_t *b) {
    static const char *name[KT_CLASSES] = { "rcu_gp_kthread", "ksoftirqd", "kworker", "kdamond", "init" };
    kthread_sums_t s = kthreads_diff(a, b);
    for (int c = 0; c < KT_CLASSES; c++)
        printf(",\"%s_%s_ns\":%lld,\"%s_%s_runs\":%lld", prefix, name[c], (long long) s.ns[c], prefix, name[c],
               (long long) s.runs[c]);
}

/* N injectors each with its own user+net namespace and listener (tc1), or N injectors into one (reorder).
 * The listeners are the probe's own children that join the namespace: as root they keep CAP_NET_ADMIN in the
 * initial user namespace, so SO_RCVBUFFORCE raises their buffer (the socket is in our netns); unprivileged they
 * keep net.core.rmem_default and may drop under load, which the line reports. */
static void tc1(long n, long sends, int one_netns, int pair) {
    int64_t *lat = shared_alloc((size_t) n * (size_t) sends * sizeof(int64_t));
    long groups = one_netns ? 1 : n;
    inj_stat_t *st = shared_alloc((size_t) n * sizeof(inj_stat_t));
    inj_stat_t *ls = shared_alloc((size_t) groups * sizeof(inj_stat_t));
    int ready[2], nsready[2], stop[2];
    if (pipe2(ready, O_CLOEXEC) != 0 || pipe2(nsready, O_CLOEXEC) != 0 || pipe2(stop, O_CLOEXEC) != 0)
        fail_missing("pipes", "", "pipe: %s", strerror(errno));
    gate_t go = gate_new();
    raise_nofile(4 * n + 64);
    pid_t *kids = calloc((size_t) groups, sizeof *kids), *lis = calloc((size_t) groups, sizeof *lis);
    for (long g = 0; g < groups; g++) {
        pid_t pid = fork_child();
        if (pid == 0) {
            close(stop[1]);
            enter_userns_netns();
            if (write(nsready[1], "n", 1) != 1) _exit(1);
            if (!one_netns) inject(g, sends, lat, st, ready[1], go);   /* the netns's own process injects: one exit each */
            /* reorder: M injectors into this one netns, each its own process */
            pid_t *inj = calloc((size_t) n, sizeof *inj);
            for (long k = 0; k < n; k++) {
                inj[k] = fork_child();
                if (inj[k] == 0) inject(k, sends, lat, st, ready[1], go);
            }
            close(go.wr); close(go.rd);
            int bad = 0, s;
            for (long k = 0; k < n; k++) { waitpid(inj[k], &s, 0); bad |= !WIFEXITED(s) || WEXITSTATUS(s) != 0; }
            _exit(bad);
        }
        kids[g] = pid;
    }
    ready_wait(nsready[0], groups);
    for (long g = 0; g < groups; g++) {
        lis[g] = fork_child();
        if (lis[g] == 0) {
            close(stop[1]); close(go.wr);
            join_namespaces_of(kids[g]);
            int lfd = uevent_socket(1);
            if (write(ready[1], "l", 1) != 1) _exit(1);
            listener_loop(lfd, stop[0], &ls[g], NULL);
            _exit(0);
        }
    }
    close(stop[0]);
    ready_wait(ready[0], n + groups);
    long settle_ms = settle(5000);   /* an earlier load's netns may still be being dismantled */
    cpu_times_t m0 = { 0 }, m1 = { 0 };
    /* the kernel threads' share of the window (rcu_gp_kthread, ksoftirqd, the per-CPU kworkers: the injectors'
     * exits' callbacks and frees), read outside it since a scan of /proc takes milliseconds at thousands of tasks */
    static kthreads_t w0, w1;   /* static: 4096 threads' figures each */
    int have_kt = !pair && kthreads_read(&w0);
    int have_times = cpu_times(&m0);
    int64_t t0 = now_ns();
    gate_open(go);
    int bad = 0, s;
    /* tc1: each netns's process is its injector, so its whole CPU (wait4's rusage) less its clock at the release is
     * its sends and its exit (do_exit, netlink_release), the exit being what its own clock cannot see */
    int64_t after_release = 0;
    long preempted = 0;   /* the injectors' involuntary context switches (ru_nivcsw): their preemptions */
    for (long g = 0; g < groups; g++) {
        struct rusage ru;
        memset(&ru, 0, sizeof ru);
        wait4(kids[g], &s, 0, &ru);
        bad |= !WIFEXITED(s) || WEXITSTATUS(s) != 0;
        after_release += (int64_t) (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000LL
                         + (int64_t) (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000LL - st[g].cpu_at_release;
        preempted += ru.ru_nivcsw;
    }
    int64_t t1 = now_ns();
    have_times = have_times && cpu_times(&m1);
    have_kt = have_kt && kthreads_read(&w1);
    close(stop[1]);   /* every send is done: the listeners drain what is queued and stop */
    for (long g = 0; g < groups; g++) { waitpid(lis[g], &s, 0); bad |= !WIFEXITED(s) || WEXITSTATUS(s) != 0; }
    if (bad) fail_missing("injector processes", "see the lines above", "an injector or listener failed");
    int64_t first = INT64_MAX, last = 0;
    long received = 0, ooo = 0, wakeups = 0, sleeps = 0, overruns = 0;
    int64_t lcpu = 0, icpu = 0;
    for (long i = 0; i < n; i++) {
        icpu += st[i].cpu;
        if (st[i].start < first) first = st[i].start;
        if (st[i].end > last) last = st[i].end;
    }
    for (long g = 0; g < groups; g++) {
        received += ls[g].received; ooo += ls[g].out_of_order; wakeups += ls[g].listener_wakeups;
        sleeps += ls[g].listener_sleeps;
        overruns += ls[g].listener_overruns; lcpu += ls[g].listener_cpu;
    }
    long total = n * sends;
    double wall = (double) (last - first) / 1e9;
    printf("{\"probe\":\"uevent\",\"set\":\"%s\",\"load\":\"%s\",\"%s\":%ld,\"sends_per_injector\":%ld,"
           "\"sends\":%ld,\"received\":%ld,\"dropped\":%ld,\"listener_overruns\":%ld,\"out_of_order\":%ld,"
           "\"out_of_order_share\":%.6f,\"listener_wakeups\":%ld,\"listener_sleeps\":%ld,\"listener_cpu_ns\":%lld,\"listener_rcvbuf_forced\":%s,"
           "\"wall_s\":%.6f,\"release_to_first_ns\":%lld,\"throughput_per_s\":%.1f",
           pair ? "fit" : "prediction", one_netns ? "reorder" : pair ? "pair" : "tc1",
           one_netns ? "injectors_into_one_netns" : "injectors", n, sends, total,
           received, total - received, overruns, ooo, received > 0 ? (double) ooo / received : 0.0, wakeups, sleeps,
           (long long) lcpu, geteuid() == 0 ? "true" : "false", wall, (long long) (first - t0),
           wall > 0 ? total / wall : 0.0);
    /* where the CPUs went from the release to the last injector's exit: the injectors' own CPU (sends and
     * the user space between them), and the machine's busy, idle and stolen time (every process, kernel
     * threads and interrupts included) */
    printf(",\"injector_cpu_ns\":%lld,\"window_ns\":%lld,\"settle_ms\":%ld", (long long) icpu, (long long) (t1 - t0),
           settle_ms);
    if (!one_netns && !pair) {
        /* when the injectors finish within the sends' span (first start to last end), by quarter: a fair scheduler
         * that cuts each at its slice ends them together at the end, one that lets each run out spreads them */
        long q[4] = { 0 };
        for (long i = 0; i < n; i++) {
            int k = last > first ? (int) (4 * (st[i].end - first) / (last - first + 1)) : 3;
            q[k < 0 ? 0 : k > 3 ? 3 : k]++;
        }
        printf(",\"injector_cpu_after_release_ns\":%lld,\"injector_preemptions\":%ld,\"injector_ends_q1\":%ld,"
               "\"injector_ends_q2\":%ld,\"injector_ends_q3\":%ld,\"injector_ends_q4\":%ld",
               (long long) after_release, preempted, q[0], q[1], q[2], q[3]);
    }
    if (have_times)
        printf(",\"machine_busy_ns\":%lld,\"machine_idle_ns\":%lld,\"machine_steal_ns\":%lld",
               (long long) (m1.busy - m0.busy), (long long) (m1.idle - m0.idle), (long long) (m1.steal - m0.steal));
    if (have_kt) print_kthreads("window", &w0, &w1);
    print_dist("send", "ns", lat, total);
    printf("}\n");
}

/* ---- the kernel threads a process exit wakes ---- */
/* ---- exit: an injector's exit, one process at a time ---- */
/* CHILDREN processes shaped as tc1's injectors (forked from this probe; a bound uevent socket, a message built, a
 * page of shared memory written), each reaped before the next is forked: the CPU of the child's exit (do_exit:
 * exit_mm -> exit_mmap's unmap_vmas and free_pgtables, exit_files -> netlink_release; its wait4 rusage, whose
 * utime + stime is its whole sum_exec_runtime, less its CPU clock just before _exit) and its parent's reaping (the
 * parent's CPU clock around wait4: the wake-up it is sent, wait_task_zombie -> release_task). The children stay in
 * this probe's netns and send nothing: a tc1 injector's netns outlives it (its listener holds it), so its exit only
 * drops a reference. Beside it, the kernel threads the exits wake (above): their run time and runs over EXIT_QUIET_MS
 * with nothing exiting (quiet_*: the machine's background), then from the first fork to EXIT_SETTLE_MS after the last
 * reap (exits_*). */
#define EXIT_QUIET_MS 200
#define EXIT_SETTLE_MS 200
static void exit_cost(long children) {
    int64_t *at_exit = shared_alloc((size_t) children * sizeof(int64_t));
    int64_t *exit_t = calloc((size_t) children, sizeof *exit_t), *reap_t = calloc((size_t) children, sizeof *reap_t);
    if (!exit_t || !reap_t) fail_missing("memory", "", "exit probe: %ld children", children);
    /* the kernel threads' background first (EXIT_QUIET_MS with nothing exiting), then over the exits and the
     * EXIT_SETTLE_MS after them, long enough for the last exits' grace periods and callbacks */
    static kthreads_t q0, q1, k0, k1;   /* static: 4096 threads' figures each */
    int have_kt = kthreads_read(&q0);
    int64_t qt0 = now_ns();
    struct timespec quiet = { 0, EXIT_QUIET_MS * 1000000L };
    nanosleep(&quiet, NULL);
    have_kt = have_kt && kthreads_read(&q1);
    int64_t qt1 = now_ns();
    have_kt = have_kt && kthreads_read(&k0);
    int64_t kt0 = now_ns();
    for (long i = 0; i < children; i++) {
        pid_t pid = fork_child();
        if (pid == 0) {
            int sfd = uevent_socket(0);
            char msg[512];
            at_exit[i] = (int64_t) build_message(msg, sizeof msg, i, 0);   /* faults the shared page in first */
            at_exit[i] = cpu_ns();
            (void) sfd;                                                      /* closed by the exit, as an injector's */
            _exit(0);
        }
        struct rusage ru;
        int st;
        int64_t c0 = cpu_ns();
        pid_t w;
        while ((w = wait4(pid, &st, 0, &ru)) < 0 && errno == EINTR) { }
        reap_t[i] = cpu_ns() - c0;
        if (w != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
            fail_missing("child processes", "", "exit probe: child %ld of %ld failed", i + 1, children);
        int64_t total = timeval_ns(ru.ru_utime) + timeval_ns(ru.ru_stime);
        exit_t[i] = total - at_exit[i];
    }
    int64_t kt_exits = now_ns() - kt0;
    struct timespec settle_t = { 0, EXIT_SETTLE_MS * 1000000L };
    nanosleep(&settle_t, NULL);
    have_kt = have_kt && kthreads_read(&k1);
    int64_t kt1 = now_ns();
    printf("{\"probe\":\"uevent\",\"set\":\"fit\",\"load\":\"exit\",\"children\":%ld", children);
    print_dist("exit", "ns", exit_t, children);
    print_dist("reap", "ns", reap_t, children);
    if (have_kt) {
        printf(",\"quiet_window_ns\":%lld", (long long) (qt1 - qt0));
        print_kthreads("quiet", &q0, &q1);
        printf(",\"exits_window_ns\":%lld,\"exits_span_ns\":%lld", (long long) (kt1 - kt0), (long long) kt_exits);
        print_kthreads("exits", &k0, &k1);
    }
    printf("}\n");
}

/* ---- waiters: the wake-up walk of nl_table_wait, one sender and parked closers ---- */
/* net/netlink/af_netlink.c (v6.18): netlink_broadcast_filtered counts itself in nl_table_users for its walk of the
 * mc_list (netlink_lock_table); a socket's release waits in netlink_table_grab, TASK_UNINTERRUPTIBLE on the
 * exclusive queue nl_table_wait, until no broadcast walks; the broadcast that takes nl_table_users to 0 calls
 * wake_up(&nl_table_wait) (netlink_unlock_table), whose __wake_up_common calls try_to_wake_up on each waiter from the
 * head until one wakes. A waiter woken before that has not run yet is TASK_RUNNING: passed over, it stays queued.
 *
 * One sender, pinned to the first CPU, sends and receives as the walk probe does with WAITERS_EXTRA sockets bound
 * elsewhere (its walk then takes most of its time, so a release almost always finds it walking). A quarter into its
 * SENDS, CLOSERS processes pinned to the second CPU close a bound uevent socket each; those that find the sender
 * walking sleep in nl_table_wait. A busy process at SCHED_FIFO then takes the second CPU (for at most
 * WAITERS_HOG_S, ended by the sender), so a closer woken from then on cannot run: every later send's wake-up walks
 * the closers then inside close() and wakes none (a closer that found no broadcast walking has closed already; one
 * that had not reached close() waits for the CPU too and is not counted). SENDS is at most WAITERS_MAX_SENDS, about
 * 0.75 s of sends, under the 0.95 s after which 6.18's fair server (50 ms in each 1 s) would run the closers. Each
 * send is timed with the number of closers inside close() when it started. The line: the sends' median before the
 * closers (no waiter) and once the busy process runs (the waiters then queued, their mean over those sends). How
 * many are queued depends on how far the closers got in WAITERS_SETTLE_SENDS: 52-117 of 256 on a quiet 2-vCPU VM,
 * and none when the machine is busy (the fit then leaves the line out). Needs SCHED_FIFO (root) and two CPUs;
 * without them the line says why it was skipped. */
#define WAITERS_EXTRA 1000
#define WAITERS_SETTLE_SENDS 300   /* ~3 ms after the closers start: they reach close() before the CPU is taken */
#define WAITERS_HOG_S 5
#define WAITERS_MIN_SENDS 2000
#define WAITERS_MAX_SENDS 50000

/* The first two CPUs this process may run on, into cpus; 0 when it may run on fewer. */
static int two_cpus(int cpus[2]) {
    cpu_set_t mine;
    int found = 0;
    if (sched_getaffinity(0, sizeof mine, &mine) == 0)
        for (int c = 0; c < CPU_SETSIZE && found < 2; c++)
            if (CPU_ISSET(c, &mine)) cpus[found++] = c;
    return found == 2;
}

static void pin_to(int cpu) {
    if (pin_to_cpu(cpu) != 0) _exit(2);
}

static void waiters_skipped(long closers, long sends, const char *why) {
    printf("{\"probe\":\"uevent\",\"set\":\"fit\",\"load\":\"waiters\",\"closers\":%ld,\"sends\":%ld,\"skipped\":", closers,
           sends);
    json_escape_print(why);
    printf("}\n");
}

static void waiters(long closers, long sends) {
    int cpus[2];
    if (!two_cpus(cpus)) { waiters_skipped(closers, sends, "needs two CPUs"); return; }
    struct sched_param fifo = { .sched_priority = 1 };
    pid_t t = fork_child();
    if (t == 0) _exit(sched_setscheduler(0, SCHED_FIFO, &fifo) == 0 ? 0 : 1);
    int st;
    waitpid(t, &st, 0);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        waiters_skipped(closers, sends, "needs SCHED_FIFO (root or RLIMIT_RTPRIO) to keep the woken closers off a CPU");
        return;
    }
    int ready[2];
    if (pipe2(ready, O_CLOEXEC) != 0) fail_missing("pipes", "", "pipe: %s", strerror(errno));
    pid_t holder = hold_sockets(WAITERS_EXTRA, ready);
    int64_t *start = shared_alloc((size_t) sends * sizeof(int64_t)), *lat = shared_alloc((size_t) sends * sizeof(int64_t));
    int64_t *cl = shared_alloc((size_t) (2 * closers + 1) * sizeof(int64_t));
    volatile int *flag = shared_alloc(4 * sizeof(int));   /* [0] closers go, [1] CPU taken, [2] sender done */
    pid_t hog = fork_child();
    if (hog == 0) {
        pin_to(cpus[1]);
        while (!flag[1] && !flag[2]) usleep(50);
        if (sched_setscheduler(0, SCHED_FIFO, &fifo) != 0) _exit(1);
        int64_t until = now_ns() + (int64_t) WAITERS_HOG_S * 1000000000LL;
        while (!flag[2] && now_ns() < until) { }
        _exit(0);
    }
    pid_t *cp = calloc((size_t) closers, sizeof *cp);
    if (!cp) fail_missing("memory", "", "waiters: %ld closers", closers);
    for (long i = 0; i < closers; i++) {
        cp[i] = fork_child();
        if (cp[i] == 0) {
            pin_to(cpus[1]);
            int fd = uevent_socket(0);
            if (write(ready[1], "r", 1) != 1) _exit(1);
            while (!flag[0] && !flag[2]) usleep(100);   /* [2]: the sender is gone */
            cl[2 * i] = now_ns();
            close(fd);   /* netlink_release -> netlink_remove -> netlink_table_grab */
            cl[2 * i + 1] = now_ns();
            _exit(0);
        }
    }
    ready_wait(ready[0], closers);
    pid_t snd = fork_child();
    if (snd == 0) {
        pin_to(cpus[0]);
        enter_userns_netns();
        int lfd = uevent_socket(1), sfd = uevent_socket(0);
        char msg[512], rbuf[4096];
        long warm = sends / 10 + 10;
        for (long i = -warm; i < sends; i++) {
            if (i == sends / 4) flag[0] = 1;
            if (i == sends / 4 + WAITERS_SETTLE_SENDS) flag[1] = 1;
            size_t len = build_message(msg, sizeof msg, 0, i);
            int64_t t0 = now_ns();
            send_one(sfd, msg, len);
            int64_t t1 = now_ns();
            if (recv(lfd, rbuf, sizeof rbuf, 0) <= 0) fail_missing("uevent delivery", "", "listener: %s", strerror(errno));
            if (i >= 0) { start[i] = t0; lat[i] = t1 - t0; }
        }
        flag[2] = 1;
        _exit(0);
    }
    int sst, hst;
    waitpid(snd, &sst, 0);
    flag[2] = 1;   /* also frees the closers and the busy process when the sender failed early */
    waitpid(hog, &hst, 0);
    long early = 0;
    for (long i = 0; i < closers; i++) waitpid(cp[i], NULL, 0);
    kill(holder, SIGKILL);
    waitpid(holder, NULL, 0);
    if (!WIFEXITED(sst) || WEXITSTATUS(sst) != 0) exit(WIFEXITED(sst) ? WEXITSTATUS(sst) : 1);
    if (!WIFEXITED(hst) || WEXITSTATUS(hst) != 0) {
        waiters_skipped(closers, sends, "the busy process could not take SCHED_FIFO");
        return;
    }
    long before = sends / 4, from = sends / 4 + WAITERS_SETTLE_SENDS;
    int64_t hog_from = start[from];
    for (long j = 0; j < closers; j++) if (cl[2 * j + 1] <= hog_from) early++;
    double waiting = 0;
    for (long i = from; i < sends; i++) {
        long w = 0;
        for (long j = 0; j < closers; j++) w += cl[2 * j] <= start[i] && cl[2 * j + 1] > start[i];
        waiting += (double) w;
    }
    printf("{\"probe\":\"uevent\",\"set\":\"fit\",\"load\":\"waiters\",\"closers\":%ld,\"sends\":%ld,\"extra_sockets\":%d,"
           "\"closed_before_cpu_taken\":%ld,\"queued_waiters_mean\":%.2f,\"before_sends\":%ld,\"queued_sends\":%ld",
           closers, sends, WAITERS_EXTRA, early, waiting / (double) (sends - from), before, sends - from);
    print_dist("before_send", "ns", lat, before);
    print_dist("queued_send", "ns", lat + from, sends - from);
    printf("}\n");
}

/* ---- wake: one send at a time while the listener is asleep in recvmsg, on its own process ---- */
static void wake(long sends) {
    int64_t *lat = shared_alloc((size_t) sends * sizeof(int64_t));
    pid_t pid = fork_child();
    if (pid == 0) {
        enter_userns_netns();
        int lfd = uevent_socket(1), sfd = uevent_socket(0);
        int ack[2];
        if (pipe2(ack, O_CLOEXEC) != 0) fail_missing("pipes", "", "pipe: %s", strerror(errno));
        pid_t lis = fork_child();
        if (lis == 0) {
            char buf[4096];
            for (;;) {
                ssize_t r = recv(lfd, buf, sizeof buf, 0);   /* asleep until the next send wakes it */
                if (r <= 0 || write(ack[1], "a", 1) != 1) _exit(0);
            }
        }
        char msg[512], c;
        long warm = sends / 10 + 10;
        for (long i = -warm; i < sends; i++) {
            struct timespec gap = { 0, 200000 };   /* 200 us: the listener is back asleep before the next send */
            nanosleep(&gap, NULL);
            size_t len = build_message(msg, sizeof msg, 0, i);
            int64_t t0 = now_ns();
            send_one(sfd, msg, len);
            int64_t t1 = now_ns();
            if (read(ack[0], &c, 1) != 1) fail_missing("uevent delivery", "", "the listener stopped");
            if (i >= 0) lat[i] = t1 - t0;
        }
        kill(lis, SIGKILL);
        waitpid(lis, NULL, 0);
        _exit(0);
    }
    int st;
    waitpid(pid, &st, 0);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) exit(WIFEXITED(st) ? WEXITSTATUS(st) : 1);
    printf("{\"probe\":\"uevent\",\"set\":\"fit\",\"load\":\"wake\",\"sends\":%ld", sends);
    print_dist("send", "ns", lat, sends);
    printf("}\n");
}

/* ---- remote: the send whose skbs another CPU frees ---- */
static void remote(long sends) {
    int cpus[2];
    if (!two_cpus(cpus)) {
        printf("{\"probe\":\"uevent\",\"set\":\"fit\",\"load\":\"remote\",\"sends\":%ld,\"skipped\":\"needs two CPUs\"}\n",
               sends);
        return;
    }
    int64_t *lat = shared_alloc((size_t) sends * sizeof(int64_t));
    volatile long *shared = shared_alloc(4 * sizeof(long));   /* [0] sends done, [1] received, [2] overruns */
    pid_t pid = fork_child();
    if (pid == 0) {
        enter_userns_netns();
        int sfd = uevent_socket(0), ready[2];
        if (pipe2(ready, O_CLOEXEC) != 0) fail_missing("pipes", "", "pipe: %s", strerror(errno));
        pid_t reader = fork_child();
        if (reader == 0) {
            /* the other CPU drains without sleeping: no send wakes it, and it frees every skb there */
            pin_to(cpus[1]);
            int lfd = uevent_socket(1);
            if (write(ready[1], "r", 1) != 1) _exit(1);
            char buf[4096];
            for (int last = 0;;) {
                /* every send had queued its skb before the sender set [0]: one more pass after seeing it empties the
                 * queue */
                int done = shared[0] != 0;
                ssize_t r = recv(lfd, buf, sizeof buf, MSG_DONTWAIT);
                if (r > 0) shared[1]++;
                else if (r < 0 && errno == ENOBUFS) shared[2]++;
                else if (last) break;
                else last = done;
            }
            _exit(0);
        }
        ready_wait(ready[0], 1);
        pin_to(cpus[0]);
        char msg[512];
        long warm = sends / 10 + 10;
        for (long i = -warm; i < sends; i++) {
            size_t len = build_message(msg, sizeof msg, 0, i);
            int64_t t0 = now_ns();
            send_one(sfd, msg, len);
            int64_t t1 = now_ns();
            if (i >= 0) lat[i] = t1 - t0;
        }
        shared[0] = 1;
        int s;
        waitpid(reader, &s, 0);
        _exit(WIFEXITED(s) && WEXITSTATUS(s) == 0 ? 0 : 1);
    }
    int st;
    waitpid(pid, &st, 0);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) exit(WIFEXITED(st) ? WEXITSTATUS(st) : 1);
    printf("{\"probe\":\"uevent\",\"set\":\"fit\",\"load\":\"remote\",\"sends\":%ld,\"received\":%ld,"
           "\"listener_overruns\":%ld,\"sender_cpu\":%d,\"reader_cpu\":%d", sends, shared[1], shared[2], cpus[0], cpus[1]);
    print_dist("send", "ns", lat, sends);
    printf("}\n");
}

/* ---- stop: tc1's listener woken by the stop pipe's close, alone ---- */
static void stop_cost(long rounds) {
    int64_t *cpu = shared_alloc((size_t) rounds * sizeof(int64_t));
    inj_stat_t *st = shared_alloc(sizeof(inj_stat_t));
    pid_t pid = fork_child();
    if (pid == 0) {
        enter_userns_netns();
        int sfd = uevent_socket(0);
        char msg[512];
        for (long r = 0; r < rounds; r++) {
            int ready[2], stop[2];
            if (pipe2(ready, O_CLOEXEC) != 0 || pipe2(stop, O_CLOEXEC) != 0)
                fail_missing("pipes", "", "pipe: %s", strerror(errno));
            pid_t lis = fork_child();
            if (lis == 0) {
                close(stop[1]); close(ready[0]);
                int lfd = uevent_socket(1);
                if (write(ready[1], "l", 1) != 1) _exit(1);
                listener_loop(lfd, stop[0], st, &cpu[r]);
                _exit(st->received == 1 ? 0 : 1);
            }
            close(stop[0]); close(ready[1]);
            ready_wait(ready[0], 1);
            close(ready[0]);
            /* one message first, so that the stop wakes a listener that has run a drain, as tc1's do */
            send_one(sfd, msg, build_message(msg, sizeof msg, 0, r));
            /* 2 ms, spinning: the listener has drained and sleeps in poll again, and this CPU stays out of idle (a
             * CPU woken from idle starts cold, and tc1's listeners are woken on busy CPUs) */
            for (int64_t t = now_ns() + 2000000; now_ns() < t;) {}
            close(stop[1]);
            int s;
            waitpid(lis, &s, 0);
            if (!WIFEXITED(s) || WEXITSTATUS(s) != 0)
                fail_missing("uevent delivery", "", "the stop round's listener did not receive its one uevent");
        }
        _exit(0);
    }
    int s;
    waitpid(pid, &s, 0);
    if (!WIFEXITED(s) || WEXITSTATUS(s) != 0) exit(WIFEXITED(s) ? WEXITSTATUS(s) : 1);
    printf("{\"probe\":\"uevent\",\"set\":\"fit\",\"load\":\"stop\",\"rounds\":%ld", rounds);
    print_dist("stop_cpu", "ns", cpu, rounds);
    printf("}\n");
}

/* K processes asleep, each in its own user+net namespace, while the machine's busy time is read over `seconds`:
 * the host's work for the netns alive when nothing else runs. The holders die with us (PR_SET_PDEATHSIG) and are
 * killed and reaped before the line is printed; the next size waits for their netns's cleanup_net (settle). */
static void idle(long k, long seconds) {
    raise_nofile(k + 64);
    int ready[2];
    if (pipe2(ready, O_CLOEXEC) != 0) fail_missing("pipes", "", "pipe: %s", strerror(errno));
    pid_t *holders = calloc((size_t) (k > 0 ? k : 1), sizeof *holders);
    if (holders == NULL) fail_missing("memory", "run a smaller probe", "%ld holders", k);
    for (long i = 0; i < k; i++) {
        holders[i] = fork_child();
        if (holders[i] == 0) {
            close(ready[0]);
            enter_userns_netns();
            if (write(ready[1], "h", 1) != 1) _exit(1);
            pause();
            _exit(0);
        }
    }
    close(ready[1]);
    ready_wait(ready[0], k);
    close(ready[0]);
    long settle_ms = settle(10000);   /* the last size's netns may still be being dismantled */
    static kthreads_t w0, w1;
    int have_kt = kthreads_read(&w0);
    cpu_times_t m0 = { 0 }, m1 = { 0 };
    int have_times = cpu_times(&m0);
    int64_t t0 = now_ns();
    struct timespec ts = { seconds, 0 };
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {}
    int64_t window = now_ns() - t0;
    have_times = have_times && cpu_times(&m1);
    have_kt = have_kt && kthreads_read(&w1);
    for (long i = 0; i < k; i++) kill(holders[i], SIGKILL);
    for (long i = 0; i < k; i++) waitpid(holders[i], NULL, 0);
    free(holders);
    if (!have_times) fail_missing("/proc/stat", "", "the machine's busy time cannot be read");
    printf("{\"probe\":\"uevent\",\"set\":\"fit\",\"load\":\"idle\",\"netns\":%ld,\"window_ns\":%lld,"
           "\"machine_busy_ns\":%lld,\"machine_idle_ns\":%lld,\"machine_steal_ns\":%lld,\"settle_ms\":%ld",
           k, (long long) window, (long long) (m1.busy - m0.busy), (long long) (m1.idle - m0.idle),
           (long long) (m1.steal - m0.steal), settle_ms);
    if (have_kt) print_kthreads("window", &w0, &w1);
    printf("}\n");
    fflush(stdout);
}

int main(int argc, char **argv) {
    probe_init("uevent");
    static const char *usage =
        "uevent_probe fit L1,L2,... SENDS | wake - SENDS | pair - SENDS | exit - CHILDREN | waiters CLOSERS SENDS"
        " (SENDS 2000..50000) | tc1 N SENDS | reorder M SENDS | idle K1,K2,... SECONDS | stop - ROUNDS | remote - SENDS";
    usage_mode(usage, argc, argv,
               (const char *const[]) { "fit", "wake", "pair", "exit", "waiters", "tc1", "reorder", "idle", "stop", "remote", NULL });
    if (argc != 4) usage_fail(usage, "'%s' takes 2 arguments, got %s", argv[1], arg_count(argc));
    if (strcmp(argv[1], "idle") == 0) {
        long ks[16];
        int nk = arg_list(argv[2], ks, 16, 0, 20000, "K");
        long seconds = arg_long(argv[3], 1, 60, "SECONDS");
        for (int i = 0; i < nk; i++) idle(ks[i], seconds);
        return 0;
    }
    if (strcmp(argv[1], "exit") == 0) {
        if (strcmp(argv[2], "-") != 0) usage_fail(usage, "'exit' takes '-' before CHILDREN, got '%s'", argv[2]);
        exit_cost(arg_long(argv[3], 1, 10000, "CHILDREN"));
        return 0;
    }
    if (strcmp(argv[1], "stop") == 0) {
        if (strcmp(argv[2], "-") != 0) usage_fail(usage, "'stop' takes '-' before ROUNDS, got '%s'", argv[2]);
        stop_cost(arg_long(argv[3], 1, 1000, "ROUNDS"));
        return 0;
    }
    long sends = arg_long(argv[3], 1, 1000000, "SENDS");
    if ((strcmp(argv[1], "wake") == 0 || strcmp(argv[1], "pair") == 0 || strcmp(argv[1], "remote") == 0)
        && strcmp(argv[2], "-") != 0)
        usage_fail(usage, "'%s' takes '-' before SENDS, got '%s'", argv[1], argv[2]);
    if (strcmp(argv[1], "fit") == 0) {
        long ls[64];
        int nl = arg_list(argv[2], ls, 64, 0, 100000, "L");
        for (int i = 0; i < nl; i++) fit_one(ls[i], sends);
    } else if (strcmp(argv[1], "wake") == 0) {
        wake(sends);
    } else if (strcmp(argv[1], "remote") == 0) {
        remote(sends);
    } else if (strcmp(argv[1], "waiters") == 0) {
        long closers = arg_long(argv[2], 1, 2000, "CLOSERS");
        waiters(closers, arg_long(argv[3], WAITERS_MIN_SENDS, WAITERS_MAX_SENDS, "SENDS"));
    } else if (strcmp(argv[1], "tc1") == 0) {
        long n = arg_long(argv[2], 1, 10000, "N");
        if (n * sends > 50000000L) fail_missing("arguments", "", "N x SENDS over 50,000,000");
        tc1(n, sends, 0, 0);
    } else if (strcmp(argv[1], "reorder") == 0) {
        tc1(arg_long(argv[2], 1, 1000, "M"), sends, 1, 0);
    } else { /* pair: usage_mode let no other mode through */
        tc1(1, sends, 0, 1);
    }
    return 0;
}
