package org.netnslab.netns;

import akka.actor.typed.ActorRef;
import java.time.Duration;
import java.util.function.IntFunction;
import org.netnslab.fault.Faults;
import org.netnslab.rcu.RcuDomain;
import org.netnslab.uevent.SeqnumCounter;
import org.netnslab.uevent.UeventSockOwner;

/**
 * What every netns of a supervisor shares. Immutable; built by the supervisor.
 *
 * @param rcu the RCU domain
 * @param globalOwner the uevent_sock_mutex owner
 * @param globalSeqnum {@code uevent_seqnum}
 * @param parent what a netns tells the supervisor and its cleanup worker
 * @param probe where lifecycle events are reported
 * @param undoTimeout the {@link OpsUndo} timeout for a run over that many netns
 * @param faults the supervisor's fault switches
 */
record NetnsEnv(
        ActorRef<RcuDomain.Command> rcu,
        ActorRef<UeventSockOwner.Command> globalOwner,
        SeqnumCounter globalSeqnum,
        Parent parent,
        LifecycleProbe probe,
        IntFunction<Duration> undoTimeout,
        Faults faults) {

    /**
     * What a netns tells the actors above it, called on the netns actor's thread: the supervisor implements
     * it with a message to itself or to its cleanup worker, so the netns names neither.
     */
    interface Parent {
        /**
         * copy_net_ns is over for netns {@code id}: its setup_net finished ({@code ok}) or was undone.
         *
         * @param id the netns id
         * @param ok whether the netns is published
         */
        void setupFinished(long id, boolean ok);

        /**
         * __put_net: netns {@code id} dropped its last active reference and joins cleanup_list.
         *
         * @param id the netns id
         * @param netns its actor
         */
        void cleanupListAdd(long id, ActorRef<NetNamespace.Command> netns);

        /** @return the supervisor's actor name, for the error of a listener still open when it stops */
        String name();
    }
}
