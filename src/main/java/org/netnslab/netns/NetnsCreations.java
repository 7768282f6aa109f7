package org.netnslab.netns;

import akka.actor.typed.ActorRef;
import akka.actor.typed.javadsl.ActorContext;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.netnslab.machine.Clock;
import org.netnslab.machine.CpuTask;
import org.netnslab.machine.Machine;
import org.netnslab.userns.UserNamespace;

/**
 * The supervisor's creation path, copy_net_ns of net/core/net_namespace.c: a creation takes the lifecycle
 * lock, its netns gets the next id and is spawned in a group, where setup_net runs; the lock is released
 * when setup_net is over, either way. The cleanup worker's batches take the same lock. Owned by the
 * supervisor actor, which alone calls it.
 */
final class NetnsCreations {
    /** A creation waiting for, or holding, the lifecycle lock. */
    private record Creation(UserNamespace owner, ActorRef<CreateResult> replyTo, long requestNanos, CpuTask task) {}

    private final ActorContext<NamespaceSupervisor.Command> ctx;
    private final ModelSettings settings;
    private final List<PernetOperations> ops;
    private final NetnsGroups groups;
    private final NetnsEnv env;
    /** Its holders: a {@link Creation}, or the cleanup worker for a batch. */
    private final LifecycleLockQueue<Object> lock;
    /** Netns whose setup_net runs (lock held under net_mutex), with their creators: id -> creator. */
    private final Map<Long, ActorRef<CreateResult>> inSetup = new HashMap<>();

    private int creating;
    private long nextId = 1;

    NetnsCreations(
            ActorContext<NamespaceSupervisor.Command> ctx,
            ModelSettings settings,
            List<PernetOperations> ops,
            NetnsGroups groups,
            NetnsEnv env) {
        this.ctx = ctx;
        this.settings = settings;
        this.ops = ops;
        this.groups = groups;
        this.env = env;
        this.lock = new LifecycleLockQueue<>(settings.netns().lifecycleLock());
    }

    /** copy_net_ns: the creation counts from now until its setup_net is over, and waits for the lock. */
    void create(NamespaceSupervisor.CreateNetns m) {
        creating++;
        lock(new Creation(m.owner(), m.replyTo(), Clock.nanoTime(), m.task()));
    }

    /** @return whether no creation is waiting for the lock or in setup_net */
    boolean idle() {
        return creating == 0;
    }

    /** The cleanup worker takes the lock for a batch; it gets {@link CleanupWorker.LockGranted}. */
    void lockForCleanup(ActorRef<CleanupWorker.Command> worker) {
        lock(worker);
    }

    /** The cleanup worker's batch has freed its data: the lock is released. */
    void unlockForCleanup() {
        unlock();
    }

    /** Netns {@code id} said its setup_net is over (finished, or undone): the lock is released. */
    void setupFinished(long id) {
        inSetup.remove(id);
        setupOver();
    }

    /**
     * A netns stopped. One that stopped (it failed) before it said its setup_net was over would otherwise keep
     * net_mutex held forever and its creator waiting: its creation ends here, as a failed one.
     *
     * @return whether netns {@code id} was in setup_net
     */
    boolean stopped(long id) {
        ActorRef<CreateResult> creator = inSetup.remove(id);
        if (creator == null) {
            return false;
        }
        ctx.getLog().error("netns {} stopped during setup_net or its undo; its creation failed", id);
        creator.tell(new CreateResult.Failed(id, "the netns stopped during setup_net or its undo (see the log)"));
        setupOver();
        return true;
    }

    /** The supervisor stopped: creations waiting for the lock or in setup_net are answered, never left to time out. */
    void failPending() {
        String reason = "the netns-lab supervisor " + ctx.getSelf().path().name()
                + " stopped before this netns's setup_net finished";
        for (Object holder : lock.drain()) {
            if (holder instanceof Creation c) {
                c.replyTo().tell(new CreateResult.Failed(-1, reason));
            }
        }
        inSetup.forEach((id, creator) -> creator.tell(new CreateResult.Failed(id, reason)));
        inSetup.clear();
    }

    /** copy_net_ns is over for one netns, either way: the creation count drops and net_mutex is released. */
    private void setupOver() {
        creating--;
        unlock();
    }

    private void lock(Object holder) {
        if (lock.lock(holder)) {
            grant(holder);
        }
    }

    private void unlock() {
        Object next = lock.unlock();
        if (next == null) {
            return;
        }
        // A queued waiter sleeps: mutex_unlock wakes it and it runs costs.mutex-handoff later (as every
        // simulated Mutex); the lock stays taken meanwhile. Live execution grants at once.
        Duration handoff = settings.costs().mutexHandoff();
        if (Machine.get(ctx.getSystem()).isVirtual() && !handoff.isZero()) {
            ctx.scheduleOnce(handoff, ctx.getSelf(), new NamespaceSupervisor.HandedOff(next));
        } else {
            grant(next);
        }
    }

    /** {@code holder} holds the lock now: a creation's netns is spawned, or the cleanup worker is told. */
    @SuppressWarnings("unchecked")
    void grant(Object holder) {
        if (holder instanceof Creation c) {
            long id = nextId++;
            inSetup.put(id, c.replyTo());
            groups.spawn(
                    id, NetnsActor.create(id, c.owner(), settings, ops, env, c.requestNanos(), c.replyTo(), c.task()));
        } else {
            ((ActorRef<CleanupWorker.Command>) holder).tell(CleanupWorker.LockGranted.INSTANCE);
        }
    }
}
