/*
 * netns_probe: the netns lifecycle of this host's kernel (net/core/net_namespace.c copy_net_ns -> setup_net
 * under pernet_ops_rwsem; __put_net -> cleanup_net on the netns workqueue, batched; the struct net freed
 * by net_free), as `unshare -n /bin/true` loops do it.
 *
 *   netns_probe serial ITER          fit set: one loop of ITER iterations: fork, unshare(CLONE_NEWNET) timed by
 *                                    the child (wall and its thread's CPU), execve(/bin/true), exit, waitpid; the
 *                                    child's CPU (wait4: user + system, their sum exact); the loop's own CPU
 *                                    per iteration (its fork and reaping wait4: parent_cpu).
 *   netns_probe parallel LOOPS ITER  prediction set: LOOPS such loops at once: loop wall, lifecycles/s.
 *   netns_probe clean                removes the tracefs instances of netns_probe runs that are gone (SIGKILLed:
 *                                    no handler ran), and says which; every calibrate runs it first.
 *
 * Both also report, where tracefs can be used (root), each cleanup_net run (workqueue_execute_start/end
 * tracepoints, function == cleanup_net) and each struct net freed (kmem_cache_free with name ==
 * "net_namespace"; tracepoints are not stable ABI, so these fields are absent when they cannot be read):
 * the batch sizes (frees inside one cleanup_net run) and last put_net -> free latency (a child's exit,
 * seen at waitpid, to a free, matched in order); with sched_switch of the kworkers, each run's CPU: the time its
 * kworker was on a CPU inside the run (the pernet exits' work), apart from the run's RCU waits. Tracing uses its own tracefs instance (created and
 * removed by the probe, also on SIGINT/SIGTERM); when tracefs is not mounted it is mounted in a private
 * mount namespace of the probe's own, so nothing is left mounted.
 * Without CAP_SYS_ADMIN the child uses unshare(CLONE_NEWUSER | CLONE_NEWNET) and says so ("userns": true).
 */
#include "probe.h"
#include <dirent.h>
#include <sys/mount.h>

static char trace_dir[256];
static int tracing = 0;
static int switch_traced = 0;   /* sched_switch of kworkers is in the trace */

/* The file of our instance open now, or -1: the kernel refuses to remove an instance while one of its files is open
 * (EBUSY), so trace_stop, maybe in a signal's handler, closes it first. */
static volatile int instance_fd = -1;

static void instance_close(int fd) {
    instance_fd = -1;
    close(fd);
}

/* Like trace_write, for a part tracing can do without: 1 if written. */
static int trace_try(const char *rel, const char *text) {
    char p[512];
    snprintf(p, sizeof p, "%s/%s", trace_dir, rel);
    int fd = open(p, O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd < 0) return 0;
    instance_fd = fd;
    int ok = write(fd, text, strlen(text)) == (ssize_t) strlen(text);
    instance_close(fd);
    return ok;
}

static void trace_write(const char *rel, const char *text) {
    if (!trace_try(rel, text)) tracing = 0;
}

static void trace_stop(void) {
    if (trace_dir[0] == '\0') return;
    if (instance_fd >= 0) instance_close(instance_fd);
    char saved[256];
    snprintf(saved, sizeof saved, "%s", trace_dir);
    trace_write("events/enable", "0");
    trace_dir[0] = '\0';
    rmdir(saved);
}

static void on_stop_signal(int sig) {
    trace_stop();
    _exit(128 + sig);
}

/* SIGINT, SIGTERM and SIGHUP remove the instance and end the probe; each blocks the others and the alarm while it
 * runs, so a second signal (a Ctrl-C, then calibrate's SIGTERM) cannot cut the first's removal short. */
static void stop_signals(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGALRM };
    for (int i = 0; i < 4; i++) sigaddset(&sa.sa_mask, sigs[i]);
    for (int i = 0; i < 3; i++) sigaction(sigs[i], &sa, NULL);
}

/* Whether process `pid` is a running netns_probe (/proc/PID/stat: "PID (COMM) STATE ..."): its instance's owner.
 * A pid the kernel gave to another program since, or a zombie (killed, not yet reaped), is an owner gone. */
static int probe_alive(int pid) {
    char p[64], line[512] = "";
    snprintf(p, sizeof p, "/proc/%d/stat", pid);
    FILE *f = fopen(p, "re");
    if (!f) return 0;
    int ok = fgets(line, sizeof line, f) != NULL;
    fclose(f);
    char *open = strchr(line, '('), *close = strrchr(line, ')');
    if (!ok || !open || !close || close < open || close[1] != ' ') return 0;
    *close = '\0';
    return strcmp(open + 1, "netns_probe") == 0 && close[2] != 'Z' && close[2] != 'X';
}

/* Removes the instances of probes that are gone (SIGKILLed: no handler ran): tracing off, then the instance.
 * With `said`, prints the names removed as a JSON array's items (comma-separated); returns how many. */
static int remove_stale_instances(const char *root, int said) {
    char p[512];
    snprintf(p, sizeof p, "%s/instances", root);
    DIR *d = opendir(p);
    struct dirent *e;
    int n = 0;
    while (d && (e = readdir(d)) != NULL) {
        int pid;
        if (sscanf(e->d_name, "netns-lab-probe-%d", &pid) == 1 && pid != (int) getpid() && !probe_alive(pid)) {
            char q[800];
            snprintf(q, sizeof q, "%s/%s/events/enable", p, e->d_name);
            int fd = open(q, O_WRONLY | O_CLOEXEC);
            if (fd >= 0) { ssize_t w = write(fd, "0", 1); (void) w; close(fd); }
            snprintf(q, sizeof q, "%s/%s", p, e->d_name);
            if (rmdir(q) == 0) {
                if (said) {
                    printf("%s", n ? "," : "");
                    json_escape_print(e->d_name);
                }
                n++;
            }
        }
    }
    if (d) closedir(d);
    return n;
}

static unsigned long long kallsyms_addr(const char *sym) {
    FILE *f = fopen("/proc/kallsyms", "re");
    if (!f) return 0;
    char line[512], name[256], type;
    unsigned long long addr = 0, a;
    while (fgets(line, sizeof line, f)) {
        if (sscanf(line, "%llx %c %255s", &a, &type, name) == 3 && strcmp(name, sym) == 0) { addr = a; break; }
    }
    fclose(f);
    return addr;
}

static const char *const TRACEFS = "/sys/kernel/tracing";

/* Makes tracefs's instances reachable: as it is, or mounted in a private mount namespace of this process's own
 * (gone with it). Returns 1 when reachable, else 0 with `why` saying why. */
static int tracefs_reachable(char *why, size_t cap) {
    struct stat sb;
    char p[512];
    snprintf(p, sizeof p, "%s/instances", TRACEFS);
    if (geteuid() != 0) { snprintf(why, cap, "not root: tracefs not readable"); return 0; }
    if (stat(p, &sb) != 0) {
        if (unshare(CLONE_NEWNS) != 0 || mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0
            || mount("nodev", TRACEFS, "tracefs", 0, NULL) != 0 || stat(p, &sb) != 0) {
            snprintf(why, cap, "tracefs cannot be mounted: %s", strerror(errno));
            return 0;
        }
    }
    return 1;
}

/* `netns_probe clean`: one line naming the instances removed, or why tracefs could not be looked at. */
static void clean(void) {
    char why[256] = "";
    printf("{\"probe\":\"lifecycle\",\"load\":\"clean\",\"removed\":[");
    int reachable = tracefs_reachable(why, sizeof why);
    if (reachable) remove_stale_instances(TRACEFS, 1);
    printf("]");
    if (!reachable) {
        printf(",\"skipped\":");
        json_escape_print(why);
    }
    printf("}\n");
}

/* Sets up our tracefs instance for `lifecycles` lifecycles; on any failure tracing stays off and `why` says why. The
 * per-CPU buffer grows with them (8 MiB, and 1 KiB more a lifecycle: its alloc, free and kworker switches), so the
 * first events of a large ladder step are not overwritten before they are read. */
static void trace_start(char *why, size_t cap, long lifecycles) {
    const char *root = TRACEFS;
    if (!tracefs_reachable(why, cap)) return;
    remove_stale_instances(root, 0);
    unsigned long long fn = kallsyms_addr("cleanup_net");
    snprintf(trace_dir, sizeof trace_dir, "%s/instances/netns-lab-probe-%d", root, (int) getpid());
    if (mkdir(trace_dir, 0700) != 0) { snprintf(why, cap, "tracefs instance: %s", strerror(errno)); trace_dir[0] = '\0'; return; }
    stop_signals();
    atexit(trace_stop);
    probe_cleanup = trace_stop;
    tracing = 1;
    trace_write("trace_clock", "mono");
    char kb[32];
    snprintf(kb, sizeof kb, "%ld", 8192 + lifecycles);
    trace_write("buffer_size_kb", kb);
    trace_write("events/kmem/kmem_cache_free/filter", "name == \"net_namespace\"");
    trace_write("events/kmem/kmem_cache_alloc/filter", "name == \"net_namespace\"");
    if (fn != 0) {
        char filt[64];
        snprintf(filt, sizeof filt, "function == 0x%llx", fn);
        trace_write("events/workqueue/workqueue_execute_start/filter", filt);
        trace_write("events/workqueue/workqueue_execute_end/filter", filt);
    }
    trace_write("events/kmem/kmem_cache_free/enable", "1");
    trace_write("events/kmem/kmem_cache_alloc/enable", "1");
    trace_write("events/workqueue/workqueue_execute_start/enable", "1");
    trace_write("events/workqueue/workqueue_execute_end/enable", "1");
    /* optional: the kworkers' switches, for the CPU a cleanup_net run takes apart from its waits */
    switch_traced = trace_try("events/sched/sched_switch/filter", "prev_comm ~ \"kworker*\" || next_comm ~ \"kworker*\"")
        && trace_try("events/sched/sched_switch/enable", "1");
    if (!tracing) { snprintf(why, cap, "tracepoints kmem_cache_alloc/free / workqueue_execute_* not usable"); trace_stop(); }
}

typedef struct { int64_t exit_at, setup_ns, setup_cpu_ns, wall_ns, user_ns, sys_ns, parent_cpu_ns; long pid; } iter_t;

static int need_userns;

static void one_loop(long iters, iter_t *out) {
    for (long i = 0; i < iters; i++) {
        int64_t t0 = now_ns();
        int64_t p0 = cpu_ns();   /* the loop's own CPU for this iteration: fork (copy_process) and the reaping wait4 */
        pid_t pid = fork_child();
        if (pid == 0) {
            struct timespec c0, c1;
            int64_t a = now_ns();
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
            int r = need_userns ? unshare(CLONE_NEWUSER | CLONE_NEWNET) : unshare(CLONE_NEWNET);
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
            if (r != 0 || simulated_failure("userns")) _exit(3);
            out[i].setup_ns = now_ns() - a;
            out[i].setup_cpu_ns = (c1.tv_sec - c0.tv_sec) * 1000000000LL + (c1.tv_nsec - c0.tv_nsec);
            execl("/bin/true", "true", (char *) NULL);
            _exit(127);
        }
        int st;
        struct rusage ru;
        wait4(pid, &st, 0, &ru);
        int64_t t1 = now_ns();
        out[i].parent_cpu_ns = cpu_ns() - p0;
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
            fail_missing("network namespaces", "run as root, or enable user namespaces (sysctl user.max_user_namespaces)",
                         "unshare(%s) refused in the loop's child", need_userns ? "CLONE_NEWUSER|CLONE_NEWNET" : "CLONE_NEWNET");
        }
        out[i].exit_at = t1;
        out[i].pid = pid;
        out[i].wall_ns = t1 - t0;
        out[i].user_ns = timeval_ns(ru.ru_utime);
        out[i].sys_ns = timeval_ns(ru.ru_stime);
    }
}

#define MAX_EV 200000
typedef struct { int64_t t; long pid; unsigned long long ptr; } tev_t;
#define MAX_SW 1000000
/* a sched_switch: at t, prev_pid left its CPU and next_pid took it (ptr holds next_pid) */
typedef struct { tev_t *alloc, *free, *sw, *start; int64_t *end; long na, nf, ns, ne, nsw; } trace_t;

/* Reads the instance's trace: net_namespace allocs (task pid, ptr) and frees (ptr), cleanup_net starts
 * and ends; times in mono ns (trace_clock mono = CLOCK_MONOTONIC). %p pointers are hashed, but the same
 * object hashes the same within a boot, so an alloc and its free match. */
static void trace_read(trace_t *tr) {
    char p[512], line[1024];
    snprintf(p, sizeof p, "%s/trace", trace_dir);
    tr->alloc = calloc(MAX_EV, sizeof(tev_t)); tr->free = calloc(MAX_EV, sizeof(tev_t));
    tr->sw = calloc(MAX_SW, sizeof(tev_t)); tr->start = calloc(MAX_EV, sizeof(tev_t)); tr->end = calloc(MAX_EV, 8);
    tr->na = tr->nf = tr->ns = tr->ne = tr->nsw = 0;
    FILE *f = fopen(p, "re");
    if (!f) return;
    instance_fd = fileno(f);
    probe_pause("trace-read");
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        char *br = strstr(line, " [");
        char *colon = br ? strstr(br, ": ") : NULL;
        if (!colon) continue;
        char *q = colon;
        while (q > line && q[-1] != ' ') q--;
        int64_t t = (int64_t) (atof(q) * 1e9 + 0.5);
        char *dash = br;
        while (dash > line && *dash != '-') dash--;
        long pid = atol(dash + 1);
        char *ptr = strstr(colon, "ptr=");
        unsigned long long pv = ptr ? strtoull(ptr + 4, NULL, 16) : 0;
        if (strstr(colon, "kmem_cache_alloc:") && tr->na < MAX_EV) tr->alloc[tr->na++] = (tev_t) { t, pid, pv };
        else if (strstr(colon, "kmem_cache_free:") && tr->nf < MAX_EV) tr->free[tr->nf++] = (tev_t) { t, pid, pv };
        else if (strstr(colon, "workqueue_execute_start:") && strstr(colon, "cleanup_net") && tr->ns < MAX_EV) tr->start[tr->ns++] = (tev_t) { t, pid, 0 };
        else if (strstr(colon, "workqueue_execute_end:") && strstr(colon, "cleanup_net") && tr->ne < MAX_EV) tr->end[tr->ne++] = t;
        else if (strstr(colon, "sched_switch:") && tr->nsw < MAX_SW) {
            char *pp = strstr(colon, " prev_pid="), *np = strstr(colon, " next_pid=");
            if (pp && np) tr->sw[tr->nsw++] = (tev_t) { t, atol(pp + 10), (unsigned long long) atol(np + 10) };
        }
    }
    instance_fd = -1;
    fclose(f);
}

/* One more netns made and dropped: its cleanup_net run frees the batch before it (since v6.13 the struct
 * net of a batch is freed by the next cleanup_net run), so the probe's own netns are all freed. */
static void flush_netns(void) {
    pid_t pid = fork_child();
    if (pid == 0) _exit(unshare(need_userns ? CLONE_NEWUSER | CLONE_NEWNET : CLONE_NEWNET) != 0);
    waitpid(pid, NULL, 0);
}

/* The time kworker `pid` spent on a CPU from t0 (a cleanup_net run's start, which it emitted, so it is on a
 * CPU then) to t1 (the run's end): its sched_switch in and out between them. The trace file merges the
 * per-CPU buffers in time order. */
static int64_t run_cpu(const trace_t *tr, long pid, int64_t t0, int64_t t1) {
    int64_t on_since = t0, cpu = 0;
    int on = 1;
    for (long i = 0; i < tr->nsw; i++) {
        const tev_t *w = &tr->sw[i];
        if (w->t <= t0) continue;
        if (w->t >= t1) break;
        if (on && w->pid == pid) { cpu += w->t - on_since; on = 0; }
        else if (!on && (long) w->ptr == pid) { on_since = w->t; on = 1; }
    }
    if (on) cpu += t1 - on_since;
    return cpu;
}

/* Reads the trace once the lifecycles in it[0..total) are all freed (or after 20 rounds), then removes the
 * instance. Runs before the result line is begun: flush_netns forks, and a fork flushes stdout, so a line begun
 * before would reach the reader in two parts, the first alone if a signal ended the probe in between. */
static void trace_collect(const iter_t *it, long total, trace_t *out) {
    trace_t tr;
    for (int round = 0; ; round++) {
        trace_read(&tr);
        long ours = 0, freed = 0;
        for (long a = 0; a < tr.na; a++) {
            int mine = 0;
            for (long i = 0; i < total && !mine; i++) mine = tr.alloc[a].pid == it[i].pid;
            if (!mine) continue;
            ours++;
            for (long k = 0; k < tr.nf; k++) if (tr.free[k].ptr == tr.alloc[a].ptr && tr.free[k].t > tr.alloc[a].t) { freed++; break; }
        }
        if ((ours > 0 && freed == ours) || round == 20) break;
        free(tr.alloc); free(tr.free); free(tr.sw); free(tr.start); free(tr.end);
        struct timespec ts = { 0, 100000000 };
        nanosleep(&ts, NULL);
        flush_netns();
        nanosleep(&ts, NULL);
    }
    trace_stop();
    *out = tr;
}

/* Batch sizes, cleanup_net run times and put -> free for the lifecycles in it[0..total), from trace_collect's. */
static void trace_report(const iter_t *it, long total, trace_t tr) {
    /* put -> free of each of our netns: its process's exit (waitpid) to its struct net's free. */
    int64_t *p2f = calloc((size_t) total, 8);
    int64_t first_alloc = INT64_MAX, last_free = 0;
    long matched = 0, allocs = 0;
    for (long i = 0; i < total; i++) {
        for (long a = 0; a < tr.na; a++) {
            if (tr.alloc[a].pid != it[i].pid) continue;
            allocs++;
            if (tr.alloc[a].t < first_alloc) first_alloc = tr.alloc[a].t;
            for (long k = 0; k < tr.nf; k++) {
                if (tr.free[k].ptr == tr.alloc[a].ptr && tr.free[k].t > tr.alloc[a].t) {
                    p2f[matched++] = tr.free[k].t - it[i].exit_at;
                    if (tr.free[k].t > last_free) last_free = tr.free[k].t;
                    break;
                }
            }
            break;
        }
    }
    /* A cleanup_net run's batch: the netns whose last put came after the previous run started and before
     * this one did (cleanup_net takes the whole cleanup_list at its start). A put is seen at its process's
     * waitpid, a little after it; the frees are not used here because since v6.13 a run may free the
     * struct net of an earlier batch. Only runs with netns of this probe count. */
    int64_t *batch = calloc((size_t) tr.ns + 1, 8), *dur = calloc((size_t) tr.ns + 1, 8),
            *cpu = calloc((size_t) tr.ns + 1, 8);
    int64_t *ex = calloc((size_t) total, 8);
    for (long i = 0; i < total; i++) ex[i] = it[i].exit_at;
    qsort(ex, (size_t) total, 8, cmp_i64);
    long nb = 0;
    for (long s = 0, e = 0, k = 0; s < tr.ns; s++) {
        while (e < tr.ne && tr.end[e] < tr.start[s].t) e++;
        if (e >= tr.ne) break;
        long c = 0;
        while (k < total && ex[k] <= tr.start[s].t) { c++; k++; }
        if (c == 0) continue;
        dur[nb] = tr.end[e] - tr.start[s].t;
        cpu[nb] = run_cpu(&tr, tr.start[s].pid, tr.start[s].t, tr.end[e]);
        batch[nb++] = c;
    }
    (void) first_alloc; (void) last_free;
    printf(",\"trace\":\"tracefs: kmem_cache_alloc/free (net_namespace), workqueue_execute_start/end (cleanup_net)\""
           ",\"netns_allocated\":%ld,\"netns_freed\":%ld,\"cleanup_net_runs\":%ld", allocs, matched, nb);
    printf(",\"cleanup_net_run_pairs\":[");
    for (long b = 0; b < nb; b++) printf("%s[%lld,%lld]", b ? "," : "", (long long) batch[b], (long long) dur[b]);
    printf("]");
    if (switch_traced) {
        /* the kworker's time on a CPU inside each run (sched_switch): the exits' CPU, apart from the waits */
        printf(",\"cleanup_net_run_cpu_pairs\":[");
        for (long b = 0; b < nb; b++) printf("%s[%lld,%lld]", b ? "," : "", (long long) batch[b], (long long) cpu[b]);
        printf("]");
    }
    print_dist("batch", "netns", batch, nb);
    print_dist("cleanup_net_run", "ns", dur, nb);
    print_dist("put_to_free", "ns", p2f, matched);
    free(tr.alloc); free(tr.free); free(tr.sw); free(tr.start); free(tr.end);
}

static void run(const char *set, long loops, long iters) {
    need_userns = geteuid() != 0;   /* unshare(CLONE_NEWNET) alone needs CAP_SYS_ADMIN */
    char why[256] = "";
    long total = loops * iters;
    trace_start(why, sizeof why, total);
    iter_t *it = shared_alloc(sizeof(iter_t) * (size_t) total);
    int64_t *loop_wall = shared_alloc(sizeof(int64_t) * (size_t) loops);
    gate_t go = gate_new();
    pid_t *kids = calloc((size_t) loops, sizeof *kids);
    for (long l = 0; l < loops; l++) {
        kids[l] = fork_child();
        if (kids[l] == 0) {
            gate_wait(go);
            int64_t t0 = now_ns();
            one_loop(iters, it + l * iters);
            loop_wall[l] = now_ns() - t0;
            _exit(0);
        }
    }
    long settle_ms = settle(5000);   /* an earlier load's netns may still be being dismantled */
    int64_t t0 = now_ns();
    gate_open(go);
    int bad = 0;
    for (long l = 0; l < loops; l++) {
        int st;
        waitpid(kids[l], &st, 0);
        if (!WIFEXITED(st)) bad = 1;
        else if (WEXITSTATUS(st) != 0) exit(WEXITSTATUS(st));
    }
    int64_t wall = now_ns() - t0;
    if (bad) fail_missing("loop processes", "", "a loop process died");
    int64_t *setup = calloc((size_t) total, 8), *iw = calloc((size_t) total, 8), *cpu_u = calloc((size_t) total, 8),
            *cpu_s = calloc((size_t) total, 8), *lw = calloc((size_t) loops, 8), *setup_cpu = calloc((size_t) total, 8),
            *cpu = calloc((size_t) total, 8), *pcpu = calloc((size_t) total, 8);
    for (long i = 0; i < total; i++) {
        setup[i] = it[i].setup_ns; setup_cpu[i] = it[i].setup_cpu_ns; iw[i] = it[i].wall_ns;
        cpu_u[i] = it[i].user_ns; cpu_s[i] = it[i].sys_ns; cpu[i] = it[i].user_ns + it[i].sys_ns;
        pcpu[i] = it[i].parent_cpu_ns;
    }
    for (long l = 0; l < loops; l++) lw[l] = loop_wall[l];
    trace_t tr = { 0 };
    if (tracing) trace_collect(it, total, &tr);
    printf("{\"probe\":\"lifecycle\",\"set\":\"%s\",\"load\":\"unshare-loops\",\"loops\":%ld,\"iterations\":%ld,\"lifecycles\":%ld,"
           "\"userns\":%s,\"wall_s\":%.6f,\"lifecycles_per_s\":%.2f",
           set, loops, iters, total, need_userns ? "true" : "false", wall / 1e9, total / (wall / 1e9));
    printf(",\"settle_ms\":%ld", settle_ms);
    print_dist("loop_wall", "ns", lw, loops);
    print_dist("iteration", "ns", iw, total);
    print_dist("unshare", "ns", setup, total);
    print_dist("unshare_cpu", "ns", setup_cpu, total);
    print_dist("child_cpu", "ns", cpu, total);
    print_dist("child_user", "ns", cpu_u, total);
    print_dist("child_sys", "ns", cpu_s, total);
    print_dist("parent_cpu", "ns", pcpu, total);
    if (tracing) {
        trace_report(it, total, tr);
    } else {
        printf(",\"trace\":null,\"trace_unavailable\":");
        json_escape_print(why);
    }
    printf("}\n");
}

int main(int argc, char **argv) {
    probe_init("lifecycle");
    static const char *usage = "netns_probe serial ITER | parallel LOOPS ITER | clean";
    usage_mode(usage, argc, argv, (const char *const[]) { "serial", "parallel", "clean", NULL });
    if (argc == 2 && strcmp(argv[1], "clean") == 0) {
        clean();
    } else if (argc == 3 && strcmp(argv[1], "serial") == 0) {
        run("fit", 1, arg_long(argv[2], 1, 100000, "ITER"));
    } else if (argc == 4 && strcmp(argv[1], "parallel") == 0) {
        long loops = arg_long(argv[2], 1, 1000, "LOOPS"), iters = arg_long(argv[3], 1, 100000, "ITER");
        if (loops * iters > 100000) fail_missing("arguments", "", "LOOPS x ITER over 100,000");
        run("prediction", loops, iters);
    } else {
        usage_fail(usage, "'%s' takes %s, got %s", argv[1],
                   strcmp(argv[1], "serial") == 0 ? "ITER" : strcmp(argv[1], "clean") == 0 ? "nothing" : "LOOPS ITER",
                   arg_count(argc));
    }
    return 0;
}
