package org.netnslab.workload;

import akka.Done;
import akka.actor.typed.ActorRef;
import akka.japi.Pair;
import akka.japi.function.Procedure;
import akka.stream.Materializer;
import akka.stream.javadsl.Keep;
import akka.stream.javadsl.Sink;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import org.netnslab.fault.ModelFault;
import org.netnslab.machine.Machine;
import org.netnslab.netlink.ReceiveQueue;
import org.netnslab.netlink.SocketOptions;
import org.netnslab.netns.NamespaceSupervisor;
import org.netnslab.netns.NetNamespace;
import org.netnslab.netns.NetnsHandle;
import org.netnslab.run.DesignScope;
import org.netnslab.run.RunFailure;
import org.netnslab.settings.HoconChecker;
import org.netnslab.uevent.Received;
import org.netnslab.userns.UserNamespace;

/**
 * What the workloads that hold a population of netns with uevent listeners share ({@code uevent-injection},
 * {@code netns-scale}): who owns netns number i, binding a listener process to a netns, and the teardown
 * (listeners close their sockets, the creators release every netns, the leak count).
 */
public final class NetnsPopulation {
    private NetnsPopulation() {}

    /**
     * The model key groups ({@link org.netnslab.design.Strategies#GROUPS}) such a workload reads: the uevent path
     * and its netlink sockets, and the netns it runs in (created and dismantled); no proc key.
     */
    public static final java.util.Set<String> UEVENT_PATH_KEYS = java.util.Set.of(
            "uevent",
            "netlink",
            "netns",
            "sockets",
            "sock-inuse",
            "rcu",
            "costs.mutex-handoff",
            "costs.uevent",
            "costs.netns");

    /**
     * A population's {@code workload.netns { userns-owned, init-owned }}, as both workloads read it.
     *
     * @param usernsOwned netns owned by a fresh user namespace each (0 when refused)
     * @param initOwned netns owned by init_user_ns (0 when refused)
     * @param ok no problem with the counts (an unknown key aside): checks that build on them may run
     */
    public record Counts(long usernsOwned, long initOwned, boolean ok) {
        private static final java.util.Set<String> KEYS = java.util.Set.of("userns-owned", "init-owned");

        /** @return netns in all */
        public long total() {
            return usernsOwned + initOwned;
        }

        /**
         * Reads {@code workload.netns}: unknown keys, each count in 0..{@code max}, then (when neither was refused)
         * the block missing or holding no netns at all.
         *
         * @param c the scenario's checker; problems are recorded there
         * @param max the most either count may be
         * @return the counts
         */
        public static Counts read(HoconChecker c, long max) {
            boolean hasNetns = c.conf().hasPath("workload.netns");
            if (hasNetns && c.object("workload.netns") != null) {
                c.unknownKeys(c.conf().getObject("workload.netns"), KEYS, "workload.netns.");
            }
            int before = c.problems().size();
            long userns = c.integer("workload.netns.userns-owned", 0L, 0, max);
            long init = c.integer("workload.netns.init-owned", 0L, 0, max);
            if (c.problems().size() > before) {
                // a count was refused already: its default would only add a second, wrong problem
            } else if (!hasNetns) {
                c.problem("workload.netns", "missing: set userns-owned and/or init-owned");
            } else if (userns + init < 1) {
                c.problem("workload.netns", "needs at least one netns (userns-owned + init-owned >= 1)");
            }
            return new Counts(userns, init, c.problems().size() == before);
        }
    }

    /**
     * The owner of netns number {@code i} of a population whose first {@code usernsOwned} netns are user-namespace
     * owned: each of those in a fresh user namespace (id i + 1) created by kuid 100000 + i, who acts as root inside
     * it, as the 2018 seed's forked injectors did; the others owned by init_user_ns.
     *
     * @param i the netns's index, from 0
     * @param usernsOwned how many of the first netns are user-namespace owned
     * @return its owning user namespace
     */
    public static UserNamespace owner(int i, int usernsOwned) {
        return i < usernsOwned ? UserNamespace.INIT.createChild(i + 1, 100_000 + i) : UserNamespace.INIT;
    }

    /**
     * @param usernsOwned netns owned by a fresh user namespace each (the first ones)
     * @param count netns in all
     * @return the owners of netns 0..count-1 ({@link #owner})
     */
    public static List<UserNamespace> owners(int usernsOwned, int count) {
        List<UserNamespace> owners = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            owners.add(owner(i, usernsOwned));
        }
        return owners;
    }

    /**
     * A listener process bound to a netns's uevent socket.
     *
     * @param bound completes with its receive queue once bound ({@link NetnsHandle#uevents(SocketOptions)})
     * @param finished completes when its stream has ended (its socket closed)
     */
    public record Listener(CompletionStage<ReceiveQueue<Received>> bound, CompletionStage<Done> finished) {}

    /**
     * Binds one NETLINK_KOBJECT_UEVENT listener to {@code h}'s uevent socket; not awaited.
     *
     * @param h the netns
     * @param options its receive buffer and NETLINK_NO_ENOBUFS
     * @param onReceive called for each receive, in order, on the stream's thread
     * @param materializer the design's materializer
     * @return the listener
     */
    public static Listener bind(
            NetnsHandle h, SocketOptions options, Procedure<Received> onReceive, Materializer materializer) {
        Pair<CompletionStage<ReceiveQueue<Received>>, CompletionStage<Done>> p =
                h.uevents(options).toMat(Sink.foreach(onReceive), Keep.both()).run(materializer);
        return new Listener(p.first(), p.second());
    }

    /**
     * Binds one NETLINK_KOBJECT_UEVENT listener to {@code h}'s uevent socket, its reader without a stream
     * ({@link NetnsHandle#listen}): in virtual execution each wake-up is one engine run at the simulated instant of
     * the delivery; live, one task on the model's dispatcher ({@link DesignScope#modelExecutor}). It receives
     * what {@link #bind(NetnsHandle, SocketOptions, Procedure, Materializer)}'s stream would. Not awaited.
     *
     * @param h the netns
     * @param options its receive buffer and NETLINK_NO_ENOBUFS
     * @param onReceive called for each receive, in order, one call at a time
     * @param scope the design's scope (its machine and materializer)
     * @return the listener
     */
    public static Listener bind(NetnsHandle h, SocketOptions options, Consumer<Received> onReceive, DesignScope scope) {
        Machine machine = scope.machine();
        Executor executor = machine.isVirtual() ? machine.engine()::execute : scope.modelExecutor();
        Pair<CompletionStage<ReceiveQueue<Received>>, CompletionStage<Done>> p = h.listen(options, executor, onReceive);
        return new Listener(p.first(), p.second());
    }

    /**
     * The teardown: each listener process of {@code closing} reads what is left and closes its socket, dropping
     * the netns reference it held; then the creators release every netns of {@code supervisor} (put_net). A
     * listener stream still open {@code netns-lab.run.ask-timeout} after its netns was told to close it (the model
     * no longer progressing), and any netns it keeps alive, is leaked: then the release is not awaited.
     *
     * @param supervisor the design's supervisor
     * @param closing the netns whose listeners close (CloseListeners is asked of each, in order)
     * @param finished every listener's stream completion
     * @param scope the design's scope
     * @return leaked: listener streams left open plus netns still alive afterwards
     * @throws RunFailure when the model stops answering
     */
    public static long dismantle(
            ActorRef<NamespaceSupervisor.Command> supervisor,
            List<NetnsHandle> closing,
            List<CompletionStage<Done>> finished,
            DesignScope scope)
            throws RunFailure {
        long leaked = closeListeners(closing, finished, scope);
        if (leaked == 0) {
            scope.<NamespaceSupervisor.Command, Done>ask(
                    supervisor, NamespaceSupervisor.ReleaseAll::new, "dismantling netns");
        } else {
            // not awaited: the netns an open listener holds will not be freed, and CountLive counts them
            scope.<NamespaceSupervisor.Command, Done>request(supervisor, NamespaceSupervisor.ReleaseAll::new);
        }
        return leaked
                + scope.<NamespaceSupervisor.Command, Integer>ask(
                        supervisor, NamespaceSupervisor.CountLive::new, "counting live netns");
    }

    /**
     * Each listener process of {@code closing} reads what is left and closes its socket, dropping the netns
     * reference it held (the first half of {@link #dismantle}).
     *
     * @param closing the netns whose listeners close (CloseListeners is asked of each, in order)
     * @param finished every listener's stream completion
     * @param scope the design's scope
     * @return listener streams still open {@code netns-lab.run.ask-timeout} after the model stopped progressing:
     *     leaked
     * @throws RunFailure when the model stops answering
     */
    public static long closeListeners(
            List<NetnsHandle> closing, List<CompletionStage<Done>> finished, DesignScope scope) throws RunFailure {
        for (NetnsHandle h : closing) {
            scope.<NetNamespace.Command, Done>ask(h.actor(), NetNamespace.CloseListeners::new, "closing listeners");
        }
        return openListeners(finished, scope);
    }

    /**
     * @return listener streams still open once the model has stopped progressing for
     *     {@code netns-lab.run.ask-timeout} after their netns were told to close them: leaked
     */
    private static long openListeners(List<CompletionStage<Done>> finished, DesignScope scope) throws RunFailure {
        // a listener the fault switch killed has closed its socket (faults.listener): its stream is done, not failed
        CompletableFuture<Void> all = CompletableFuture.allOf(finished.stream()
                .map(f -> f.toCompletableFuture()
                        .exceptionallyCompose(e -> killedByFault(e)
                                ? CompletableFuture.completedFuture(Done.getInstance())
                                : CompletableFuture.failedFuture(e)))
                .toArray(CompletableFuture[]::new));
        if (scope.completesWhileProgressing(all, "closing listener streams")) {
            return 0;
        }
        return finished.stream().filter(f -> !f.toCompletableFuture().isDone()).count();
    }

    /**
     * @param finished a listener stream's completion
     * @return whether the fault switch {@code faults.listener} failed it (its process killed)
     */
    public static boolean failedByFault(CompletionStage<Done> finished) {
        CompletableFuture<Done> f = finished.toCompletableFuture();
        return f.isCompletedExceptionally()
                && f.handle((ok, e) -> killedByFault(e)).join();
    }

    /** @return whether a stream's failure is the fault switch's: its cause, unwrapped, is a {@link ModelFault} */
    private static boolean killedByFault(Throwable e) {
        Throwable t = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
        return t instanceof ModelFault;
    }
}
