package org.netnslab.workload.soak;

import akka.Done;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.japi.Pair;
import akka.stream.javadsl.Keep;
import akka.stream.javadsl.Sink;
import akka.stream.javadsl.Source;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import org.netnslab.design.Design;
import org.netnslab.fault.ModelFault;
import org.netnslab.metrics.StripedRecorder;
import org.netnslab.netlink.RcvbufOption;
import org.netnslab.netlink.ReceiveQueue;
import org.netnslab.netlink.SocketOptions;
import org.netnslab.netns.NamespaceSupervisor;
import org.netnslab.netns.NetNamespace;
import org.netnslab.netns.NetnsHandle;
import org.netnslab.run.DesignScope;
import org.netnslab.run.RunFailure;
import org.netnslab.uevent.Received;
import org.netnslab.uevent.UeventRoute;
import org.netnslab.userns.Capability;
import org.netnslab.userns.Credentials;
import org.netnslab.userns.UserNamespace;

/**
 * The rounds of an isolation soak. A round: netns owned at each level of the user namespace chain
 * (init_user_ns, then each child of the one above); in each, reading listeners and stalled ones (they
 * take one message, then read nothing until the round's end, on a small SO_RCVBUFFORCE buffer: ENOBUFS);
 * four sender tasks per netns, each a closed loop: root of the owner (permitted), root of the owner's
 * parent that created it (permitted: ns_capable over a child it owns), a task of the owner with no
 * capabilities (EPERM), root of a child of the owner (EPERM: no capability over an ancestor), as
 * uevent_net_rcv_skb (lib/kobject_uevent.c) decides with netlink_ns_capable(skb, net->user_ns,
 * CAP_SYS_ADMIN); the unauthorised tasks' messages carry a mark no listener may ever receive. Also a
 * device task per netns sending kernel uevents tagged for its veth0, and a task sending untagged kernel
 * uevents, which kobject_uevent_net_broadcast sends to every netns owned by init_user_ns. Then each
 * listener reads what is left and closes, and the netns are released.
 *
 * @param w the workload
 * @param design the design
 * @param scope the design's scope
 * @param supervisor the design's supervisor
 * @param levels the user namespace chain, init_user_ns first
 * @param leafChild a child of the last level (its root has no capability over any level)
 * @param transactions records each injection's send to its answer, ns
 * @param delivery records each reading listener's send to receipt, ns
 */
record SoakRounds(
        IsolationSoakWorkload w,
        Design design,
        DesignScope scope,
        ActorRef<NamespaceSupervisor.Command> supervisor,
        List<UserNamespace> levels,
        UserNamespace leafChild,
        StripedRecorder transactions,
        StripedRecorder delivery) {
    /** An authorised task's message. */
    private static final byte[] PAYLOAD =
            ("change@/devices/virtual/net/lo\0ACTION=change\0DEVPATH=/devices/virtual/net/lo\0"
                            + "SUBSYSTEM=net\0INTERFACE=lo\0")
                    .getBytes(StandardCharsets.US_ASCII);
    /** An unauthorised task's message: carries {@link SoakListener#FORGED_MARK}. */
    private static final byte[] FORGED =
            ("add@/devices/virtual/net/forged\0ACTION=add\0DEVPATH=/devices/virtual/net/forged\0"
                            + "SUBSYSTEM=net\0INTERFACE=forged\0")
                    .getBytes(StandardCharsets.US_ASCII);

    /** One sender task to spawn, with its answer. */
    private record Sender(
            Behavior<SoakSender.Command> behavior,
            CompletableFuture<SoakSender.Tally> done,
            boolean tagged,
            boolean untagged) {}

    /** One listener stream of the round. */
    private record Listening(SoakListener check, CompletionStage<Done> finished, CompletableFuture<Done> gate) {}

    /**
     * Runs the next round to its end, every netns of it released.
     *
     * @param t the totals the round adds to
     * @throws RunFailure when the model stops answering or a listener stream fails other than by a fault
     */
    void next(SoakTotals t) throws RunFailure {
        long round = ++t.rounds;
        List<UserNamespace> owners = new ArrayList<>();
        for (UserNamespace owner : levels) {
            for (int k = 0; k < w.netnsPerLevel(); k++) {
                owners.add(owner);
            }
        }
        List<NetnsHandle> netns = scope.createNetns(supervisor, owners);
        List<Listening> listening = listen(netns);
        List<Sender> senders = senders(netns);
        List<Behavior<SoakSender.Command>> behaviors = new ArrayList<>();
        senders.forEach(s -> behaviors.add(s.behavior()));
        scope.spawnEach(behaviors, "r" + round + "-sender");

        long[] sentInto = new long[netns.size()];
        long untaggedSent = 0;
        for (Sender s : senders) {
            SoakSender.Tally tally = scope.await(s.done(), "round " + round + "'s sends");
            t.add(tally, s.untagged(), s.tagged());
            if (s.untagged()) {
                untaggedSent += tally.sent();
            } else {
                sentInto[tally.netnsIndex()] += tally.sent();
            }
        }

        // The round's end: each listener reads what is left and closes its socket, then the creators release.
        listening.forEach(l -> l.gate().complete(Done.getInstance()));
        awaitAll(
                netns,
                h -> scope.<NetNamespace.Command, Done>request(h.actor(), NetNamespace.CloseListeners::new),
                "closing round " + round + "'s listeners");
        for (Listening l : listening) {
            SoakListener c = l.check();
            long expected = sentInto[c.netnsIndex] + (netns.get(c.netnsIndex).initOwned() ? untaggedSent : 0);
            t.add(c, expected, failedByFault(l, round));
        }
        awaitAll(
                netns,
                h -> scope.<NamespaceSupervisor.Command, Done>request(
                        supervisor, r -> new NamespaceSupervisor.ReleaseNetns(h.id(), r)),
                "dismantling round " + round + "'s netns");
    }

    /** Binds the round's listeners, reading and stalled, to each netns. */
    private List<Listening> listen(List<NetnsHandle> netns) throws RunFailure {
        SocketOptions reading = design.model().uevent().listener();
        SocketOptions small = new SocketOptions(w.stalledRcvbuf(), RcvbufOption.SO_RCVBUFFORCE, false);
        List<Listening> listening = new ArrayList<>();
        for (int i = 0; i < netns.size(); i++) {
            NetnsHandle h = netns.get(i);
            for (int l = 0; l < w.listenersPerNetns() + w.stalledPerNetns(); l++) {
                boolean stalled = l >= w.listenersPerNetns();
                SoakListener check = new SoakListener(i, h.id(), h.initOwned(), stalled, delivery);
                CompletableFuture<Done> gate = new CompletableFuture<>();
                Source<Received, CompletionStage<ReceiveQueue<Received>>> src = h.uevents(stalled ? small : reading);
                if (stalled) { // takes one message, then reads nothing until the gate opens at the round's end
                    src = src.mapAsync(1, r -> gate.thenApply(d -> r));
                } else {
                    gate.complete(Done.getInstance());
                }
                Pair<CompletionStage<ReceiveQueue<Received>>, CompletionStage<Done>> p =
                        src.toMat(Sink.foreach(check::onReceive), Keep.both()).run(scope.materializer());
                listening.add(new Listening(check, p.second(), gate));
                check.bound(scope.await(p.first(), "binding listeners"));
            }
        }
        return listening;
    }

    /** The round's sender tasks: four injecting ones and a device task per netns, and the untagged one. */
    private List<Sender> senders(List<NetnsHandle> netns) {
        List<Sender> senders = new ArrayList<>();
        for (int i = 0; i < netns.size(); i++) {
            NetnsHandle h = netns.get(i);
            UserNamespace owner = h.owner();
            int level = owner.level();
            List<Credentials> tasks = new ArrayList<>();
            tasks.add(Credentials.root(owner, owner.ownerKuid()));
            if (!owner.isInitial()) {
                tasks.add(Credentials.root(owner.parent(), owner.ownerKuid())); // the creator, in the parent
            }
            tasks.add(Credentials.unprivileged(owner, 4242));
            tasks.add(Credentials.root(level < levels.size() - 1 ? levels.get(level + 1) : leafChild, 0));
            for (Credentials c : tasks) {
                boolean permitted = c.nsCapable(owner, Capability.CAP_SYS_ADMIN);
                CompletableFuture<SoakSender.Tally> d = new CompletableFuture<>();
                senders.add(new Sender(
                        SoakSender.create(
                                h.injectRoute(),
                                c,
                                permitted ? PAYLOAD : FORGED,
                                i,
                                permitted,
                                w.injectionsPerSender(),
                                transactions,
                                d),
                        d,
                        false,
                        false));
            }
            if (w.taggedPerNetns() > 0) {
                CompletableFuture<SoakSender.Tally> d = new CompletableFuture<>();
                UeventRoute device = (sender, payload, sentNanos, replyTo) -> h.actor()
                        .tell(new NetNamespace.EmitTaggedUevent(
                                "change", "/devices/virtual/net/veth0", "net", Map.of("INTERFACE", "veth0"), replyTo));
                senders.add(new Sender(
                        SoakSender.create(device, null, PAYLOAD, i, true, w.taggedPerNetns(), null, d),
                        d,
                        true,
                        false));
            }
        }
        if (w.untaggedPerRound() > 0) {
            CompletableFuture<SoakSender.Tally> d = new CompletableFuture<>();
            UeventRoute kernel =
                    (sender, payload, sentNanos, replyTo) -> supervisor.tell(new NamespaceSupervisor.KernelUevent(
                            "change", "/devices/virtual/misc/soak", "misc", Map.of(), -1, replyTo));
            senders.add(new Sender(
                    SoakSender.create(kernel, null, PAYLOAD, -1, true, w.untaggedPerRound(), null, d), d, false, true));
        }
        return senders;
    }

    /**
     * @return whether the listener's stream was failed by the fault switch (its process killed)
     * @throws RunFailure when it failed otherwise
     */
    private boolean failedByFault(Listening l, long round) throws RunFailure {
        try {
            scope.outcome(l.finished(), "round " + round + "'s listener streams");
            return false;
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof ModelFault)) {
                throw new RunFailure(scope.design() + ": a listener stream failed: " + e.getCause(), e);
            }
            return true;
        }
    }

    /** Asks {@code ask} of every netns at once, then awaits every answer ({@code what}: for a timeout's message). */
    private void awaitAll(List<NetnsHandle> netns, Function<NetnsHandle, CompletionStage<Done>> ask, String what)
            throws RunFailure {
        List<CompletionStage<Done>> answers = new ArrayList<>();
        for (NetnsHandle h : netns) {
            answers.add(ask.apply(h));
        }
        for (CompletionStage<Done> a : answers) {
            scope.await(a, what);
        }
    }
}
