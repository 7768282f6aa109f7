package org.netnslab.sockinuse;

import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * A netns's per-CPU socket-in-use counter ({@code net->core.sock_inuse}, "sock: Move the socket inuse
 * to namespace", v4.16): one int slot per possible CPU. {@link #add} is sock_inuse_add (one slot),
 * {@link #get} is sock_inuse_get (the sum over all slots, without a snapshot, so it may be briefly
 * inaccurate or even negative while adds run).
 *
 * <p>Shared on purpose: the netns actor allocates and frees it, but per-CPU memory is touched from any
 * context, including RCU callbacks, as in the kernel. After {@link #free} every access is a
 * use-after-free: it is detected, reported to {@code useAfterFree} and has no effect, never thrown.
 * Thread-safe.
 */
public final class SockInuse {
    private final AtomicIntegerArray slots;
    private final Runnable useAfterFree;
    private volatile boolean freed;

    /**
     * alloc_percpu.
     *
     * @param cpus number of per-CPU slots, at least 1
     * @param useAfterFree called once per access after free (must be thread-safe)
     */
    public SockInuse(int cpus, Runnable useAfterFree) {
        if (cpus < 1) {
            throw new IllegalArgumentException("sock_inuse needs at least 1 CPU slot, got " + cpus);
        }
        this.slots = new AtomicIntegerArray(cpus);
        this.useAfterFree = useAfterFree;
    }

    /** @return the number of per-CPU slots */
    public int cpus() {
        return slots.length();
    }

    /**
     * sock_inuse_add on CPU {@code cpu} (taken modulo the slot count).
     *
     * @param cpu the CPU the caller runs on
     * @param delta +1 when a counted socket is allocated, -1 when it is freed
     * @return false when the counter was already freed (a use-after-free, counted)
     */
    public boolean add(int cpu, int delta) {
        if (freed) {
            useAfterFree.run();
            return false;
        }
        slots.addAndGet(Math.floorMod(cpu, slots.length()), delta);
        return true;
    }

    /**
     * sock_inuse_get: sums every slot without a snapshot.
     *
     * @return the sum; 0 after free (the access is counted as a use-after-free)
     */
    public int get() {
        if (freed) {
            useAfterFree.run();
            return 0;
        }
        int sum = 0;
        for (int i = 0; i < slots.length(); i++) {
            sum += slots.get(i);
        }
        return sum;
    }

    /**
     * free_percpu. Freeing twice is itself a use-after-free (a double free) and is counted.
     */
    public void free() {
        if (freed) {
            useAfterFree.run();
            return;
        }
        freed = true;
    }

    /** @return whether the counter has been freed */
    public boolean isFreed() {
        return freed;
    }
}
