package org.netnslab.uevent;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A uevent SEQNUM counter: {@code uevent_seqnum} in lib/kobject_uevent.c when the scope is global,
 * or one per netns as the 2018 proposal had it. The last assigned value is what
 * {@code /sys/kernel/uevent_seqnum} shows.
 *
 * <p>Thread-safe. A global counter is shared on purpose between every sender the design allows
 * (the owner actor under {@code global-owner}, the netns actors and the owner under
 * {@code per-netns-owner}, the senders themselves under {@code lockless}); an atomic keeps numbers
 * unique in every case, and the design's serialization decides whether they are also delivered in
 * order. A counter never resets: a failed send leaves a gap, as in the kernel.
 *
 * <p>The one exception is {@link #underTwoLocks()}: the per-netns counter of the 2018 patch as
 * posted, a plain {@code u64} that {@code ++} bumps under whichever mutex the path took. Its
 * read-modify-write is shared on purpose between the netns actor and the global owner, unprotected,
 * as the posted patch left it: live, two threads inside it at once hand out one number twice. In
 * virtual execution a bump is one instant on the engine's thread, so it never repeats a number; the
 * two locks show as SEQNUMs out of order instead.
 */
public final class SeqnumCounter {
    private final AtomicLong last = new AtomicLong();
    private final boolean atomic;
    private final UeventMcList mcList = new UeventMcList();

    /** An atomic counter (atomic64_inc_return, or a plain {@code ++} under one lock: the same). */
    public SeqnumCounter() {
        this(true);
    }

    private SeqnumCounter(boolean atomic) {
        this.atomic = atomic;
    }

    /**
     * The 2018 patch as posted: {@code ++net->uevent_seqnum} under the netns's mutex for injections and
     * under uevent_sock_mutex for the netns's tagged kernel events. Two locks, one counter: two
     * concurrent bumps can both read n and both hand out n + 1.
     *
     * @return a counter whose {@link #next()} is a non-atomic read, then write
     */
    public static SeqnumCounter underTwoLocks() {
        return new SeqnumCounter(false);
    }

    /**
     * The counter of a netns owned by a non-initial user namespace under per-netns scope.
     *
     * @param serialization the design's serialization
     * @return {@link #underTwoLocks()} for the patch as posted ({@link UeventSerialization#PER_NETNS_OWNER}),
     *     an atomic counter otherwise
     */
    public static SeqnumCounter perNetns(UeventSerialization serialization) {
        return serialization == UeventSerialization.PER_NETNS_OWNER ? underTwoLocks() : new SeqnumCounter();
    }

    /** @return the next SEQNUM (the first is 1) */
    public long next() {
        if (atomic) {
            return last.incrementAndGet();
        }
        long n = last.get() + 1; // the u64 ++ of the posted patch: load, add, store
        last.set(n);
        return n;
    }

    /**
     * @return the uevent family's multicast list that travels with this counter; the design run's global
     *     counter's list is the system-wide one ({@link UeventMcList})
     */
    public UeventMcList mcList() {
        return mcList;
    }

    /** @return the last SEQNUM assigned, 0 before the first; the sysfs {@code uevent_seqnum} read */
    public long last() {
        return last.get();
    }
}
