package org.netnslab.uevent;

import java.time.Duration;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;
import org.netnslab.settings.Setting;

/**
 * Simulated costs of the uevent send and receive paths ({@code netns-lab.model.costs.uevent}), charged in
 * virtual execution only, in ns. One set for the 4.17..6.9 era: the designs differ in which lock covers
 * the inside part (lib/kobject_uevent.c uevent_net_rcv_skb / uevent_net_broadcast), not in the work
 * itself. Each cost's source is in reference.conf.
 *
 * @param sendOutside ns: sendmsg entry, skb alloc, copy_from_user, netlink_unicast to the kernel socket
 *     (uevent_net_rcv -> netlink_rcv_skb -> the capability check), before any uevent lock
 * @param sendInside ns: SEQNUM increment and skb_copy_expand + SEQNUM append (uevent_net_broadcast)
 * @param broadcastPerSocket ns per uevent listener socket bound anywhere in the system: netlink_broadcast's
 *     walk of nl_table[NETLINK_KOBJECT_UEVENT].mc_list (do_one_broadcast skips other netns one by one)
 * @param deliverPerListener ns per listener that receives the message: skb_clone, queue, wake
 * @param sendReturn ns: back to userspace after the send (consume_skb, syscall exit)
 * @param recv ns: a listener's recvmsg of one message, on the listener's own task
 * @param injectorUser ns: the injector's user-space work before each sendmsg (its loop, building the next
 *     message); charged by the fair scheduler only ({@code machine.scheduler = fair})
 * @param listenerUser ns: a listener's user-space handling of one received message; fair scheduler only
 * @param wakeListener ns: the sender's wake-up of a listener asleep in recvmsg or poll (sk_data_ready ->
 *     sock_def_readable -> __wake_up_sync_key -> try_to_wake_up, net/core/sock.c and kernel/sched/core.c), charged
 *     to a send that finds its listener asleep; fair scheduler only
 * @param injectorExit ns: an injector process's exit after its last counted send, on its own task (do_exit,
 *     kernel/exit.c: exit_mm -> exit_mmap's unmap_vmas and free_pgtables, exit_files -> netlink_release of its
 *     socket) and its parent's reaping (wait4 -> wait_task_zombie -> release_task), which take a CPU while the other
 *     injectors still send; not counted as the injector's CPU (a probe reads its CPU clock before it exits); fair
 *     scheduler only
 * @param tableWaiter ns per waiter that a wake-up of netlink's {@code nl_table_wait} walks (__wake_up_common's
 *     try_to_wake_up on each queued socket release, net/netlink/af_netlink.c netlink_unlock_table), charged to the
 *     broadcast that ends with no other in flight while injectors' exits wait in netlink_table_grab ({@link
 *     org.netnslab.netlink.NlTable}), and to a release that is done (netlink_table_ungrab's wake-up) on its own task; fair
 *     scheduler, with {@code injectorExit} > 0, only
 * @param injectorExitCallbacks ns per injector exit: the RCU callbacks its frees queued (release_task ->
 *     put_task_struct_rcu_user's delayed_put_task_struct, thread_stack_delayed_free's thread_stack_free_rcu, the
 *     netlink socket's deferred_put_nlk_sk, ...), run a grace period later by ksoftirqd of the CPU it exited on
 *     (RCU_SOFTIRQ, kernel/rcu/tree.c rcu_do_batch; the task_struct's may be queued on its parent's CPU instead), a
 *     kernel thread ({@link org.netnslab.rcu.ExitFrees}); an average over exits, some of whose stacks the per-CPU
 *     cache takes without a callback; fair scheduler, with {@code injectorExit} > 0, only
 * @param injectorExitVfree ns per injector exit: its thread stack's vfree, which thread_stack_free_rcu calls from
 *     that softirq and which is therefore deferred (mm/vmalloc.c vfree -> vfree_atomic) to delayed_vfree_work on
 *     that CPU's kworker; as {@code injectorExitCallbacks}
 * @param broadcastUncachedExtra ns per bound socket beyond {@code broadcastCachedSockets}, on top of {@code
 *     broadcastPerSocket}: once the walked sockets (each walk reads the socket's bind node, portid, groups bitmap
 *     and netns in do_one_broadcast, net/netlink/af_netlink.c) no longer stay in the CPU's caches, each one is a
 *     miss further out; 0 (the default) keeps the walk linear at every size
 * @param broadcastCachedSockets bound sockets whose walk stays in the caches (the walk's knee), a count; with
 *     {@code broadcastUncachedExtra} 0 it has no effect
 * @param recvEvicted ns a listener's recvmsg costs more once its message waited in the queue while the broadcasts
 *     walked many sockets: netlink_recvmsg (net/netlink/af_netlink.c) reads the skb, its shared info and data and
 *     the socket's queue that the walks (each do_one_broadcast reads every bound socket) evicted; {@code
 *     recvEvicted x max(0, 1 - recvCachedSockets / K)} with K the sockets walked since the message was queued; 0
 *     (the default): a receive costs {@code recv} however long it waited
 * @param recvCachedSockets the sockets walked after which a queued message's lines start to be evicted, a count
 * @param listenerStop ns: a listener's last wake-up, when the load's end wakes it asleep in poll (the calibrate
 *     probe closes a pipe every listener polls beside its socket: pipe_release -> wake_up_interruptible_sync_poll,
 *     fs/pipe.c): poll's return (do_sys_poll -> poll_freewait), a poll that finds nothing and the loop's end, on the
 *     listener's own task after its switch-in; charged only by a workload with {@code listeners-woken-at-end};
 *     fair scheduler only
 */
public record UeventCosts(
        long sendOutside,
        long sendInside,
        long broadcastPerSocket,
        long deliverPerListener,
        long sendReturn,
        long recv,
        long injectorUser,
        long listenerUser,
        long wakeListener,
        long injectorExit,
        long tableWaiter,
        long injectorExitCallbacks,
        long injectorExitVfree,
        long broadcastUncachedExtra,
        int broadcastCachedSockets,
        long recvEvicted,
        int recvCachedSockets,
        long listenerStop) {
    private static final Duration MAX = Duration.ofMillis(10);
    /** {@code costs.uevent.send-outside}. */
    public static final Setting<Duration> SEND_OUTSIDE = Setting.duration("costs.uevent.send-outside", MAX);
    /** {@code costs.uevent.send-inside}. */
    public static final Setting<Duration> SEND_INSIDE = Setting.duration("costs.uevent.send-inside", MAX);
    /** {@code costs.uevent.broadcast-per-socket}. */
    public static final Setting<Duration> BROADCAST_PER_SOCKET =
            Setting.duration("costs.uevent.broadcast-per-socket", MAX);
    /** {@code costs.uevent.deliver-per-listener}. */
    public static final Setting<Duration> DELIVER_PER_LISTENER =
            Setting.duration("costs.uevent.deliver-per-listener", MAX);
    /** {@code costs.uevent.return}. */
    public static final Setting<Duration> RETURN = Setting.duration("costs.uevent.return", MAX);
    /** {@code costs.uevent.recv}. */
    public static final Setting<Duration> RECV = Setting.duration("costs.uevent.recv", MAX);
    /** {@code costs.uevent.injector-user}. */
    public static final Setting<Duration> INJECTOR_USER = Setting.duration("costs.uevent.injector-user", MAX);
    /** {@code costs.uevent.listener-user}. */
    public static final Setting<Duration> LISTENER_USER = Setting.duration("costs.uevent.listener-user", MAX);
    /** {@code costs.uevent.wake-listener}. */
    public static final Setting<Duration> WAKE_LISTENER = Setting.duration("costs.uevent.wake-listener", MAX);
    /** {@code costs.uevent.injector-exit}. */
    public static final Setting<Duration> INJECTOR_EXIT = Setting.duration("costs.uevent.injector-exit", MAX);
    /** {@code costs.uevent.table-waiter}. */
    public static final Setting<Duration> TABLE_WAITER = Setting.duration("costs.uevent.table-waiter", MAX);
    /** {@code costs.uevent.injector-exit-callbacks}. */
    public static final Setting<Duration> INJECTOR_EXIT_CALLBACKS =
            Setting.duration("costs.uevent.injector-exit-callbacks", MAX);
    /** {@code costs.uevent.injector-exit-vfree}. */
    public static final Setting<Duration> INJECTOR_EXIT_VFREE =
            Setting.duration("costs.uevent.injector-exit-vfree", MAX);

    /** {@code costs.uevent.broadcast-uncached-extra}. */
    public static final Setting<Duration> BROADCAST_UNCACHED_EXTRA =
            Setting.duration("costs.uevent.broadcast-uncached-extra", MAX);
    /** {@code costs.uevent.broadcast-cached-sockets}. */
    public static final Setting<Integer> BROADCAST_CACHED_SOCKETS =
            Setting.integer("costs.uevent.broadcast-cached-sockets", 0, 10_000_000);

    /** {@code costs.uevent.recv-evicted}. */
    public static final Setting<Duration> RECV_EVICTED = Setting.duration("costs.uevent.recv-evicted", MAX);
    /** {@code costs.uevent.recv-cached-sockets}. */
    public static final Setting<Integer> RECV_CACHED_SOCKETS =
            Setting.integer("costs.uevent.recv-cached-sockets", 0, 10_000_000);

    /** {@code costs.uevent.listener-stop}. */
    public static final Setting<Duration> LISTENER_STOP = Setting.duration("costs.uevent.listener-stop", MAX);

    /**
     * @param bound the uevent sockets bound on the machine: walking the same ones again evicts nothing more
     * @param walkedSince the sockets the machine's broadcasts walked since the message was queued
     * @return what its recvmsg costs more than {@code recv}, ns: {@code recvEvicted x max(0, 1 - recvCachedSockets /
     *     K)}, K the lesser of the two counts
     */
    public long recvAfterWalk(int bound, long walkedSince) {
        long k = Math.min(bound, walkedSince);
        if (recvEvicted == 0 || k <= recvCachedSockets) {
            return 0;
        }
        return Math.round(recvEvicted * (1 - recvCachedSockets / (double) k));
    }

    /**
     * Kernel parts only, no user-space work.
     *
     * @param sendOutside ns
     * @param sendInside ns
     * @param broadcastPerSocket ns
     * @param deliverPerListener ns
     * @param sendReturn ns
     * @param recv ns
     */
    public UeventCosts(
            long sendOutside,
            long sendInside,
            long broadcastPerSocket,
            long deliverPerListener,
            long sendReturn,
            long recv) {
        this(
                sendOutside,
                sendInside,
                broadcastPerSocket,
                deliverPerListener,
                sendReturn,
                recv,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0);
    }

    /**
     * The CPU time of the part a send runs under the design's uevent lock (or, lockless, after its SEQNUM):
     * uevent_net_broadcast's skb copy and netlink_broadcast's walk of the mc_list (every bound socket, plus the
     * uncached extra for each beyond the cached ones) and deliveries (lib/kobject_uevent.c, net/netlink/af_netlink.c).
     *
     * @param boundSystemWide uevent listener sockets bound in the whole system (the mc_list walk)
     * @param receivers listeners of the target netns that get the message
     * @return ns
     */
    public long inside(int boundSystemWide, int receivers) {
        long uncached = Math.max(0, boundSystemWide - broadcastCachedSockets);
        return sendInside
                + boundSystemWide * broadcastPerSocket
                + uncached * broadcastUncachedExtra
                + receivers * deliverPerListener;
    }

    /**
     * @param value each cost's value, given its setting: read from a model config, or scaled (netns.Costs)
     * @param count each count's value, given its setting
     * @return the costs, in ns
     */
    public static UeventCosts of(Function<Setting<Duration>, Duration> value, ToIntFunction<Setting<Integer>> count) {
        ToLongFunction<Setting<Duration>> nanos = cost -> value.apply(cost).toNanos();
        return new UeventCosts(
                nanos.applyAsLong(SEND_OUTSIDE),
                nanos.applyAsLong(SEND_INSIDE),
                nanos.applyAsLong(BROADCAST_PER_SOCKET),
                nanos.applyAsLong(DELIVER_PER_LISTENER),
                nanos.applyAsLong(RETURN),
                nanos.applyAsLong(RECV),
                nanos.applyAsLong(INJECTOR_USER),
                nanos.applyAsLong(LISTENER_USER),
                nanos.applyAsLong(WAKE_LISTENER),
                nanos.applyAsLong(INJECTOR_EXIT),
                nanos.applyAsLong(TABLE_WAITER),
                nanos.applyAsLong(INJECTOR_EXIT_CALLBACKS),
                nanos.applyAsLong(INJECTOR_EXIT_VFREE),
                nanos.applyAsLong(BROADCAST_UNCACHED_EXTRA),
                count.applyAsInt(BROADCAST_CACHED_SOCKETS),
                nanos.applyAsLong(RECV_EVICTED),
                count.applyAsInt(RECV_CACHED_SOCKETS),
                nanos.applyAsLong(LISTENER_STOP));
    }
}
