package org.netnslab.netns;

import akka.actor.typed.ActorRef;

/**
 * What the netns of a supervisor tell it and its cleanup worker ({@link NetnsEnv.Parent}): messages to them.
 * Immutable; called from the netns actors' threads.
 *
 * @param supervisor told {@link NamespaceSupervisor.SetupFinished}
 * @param cleanup told {@link CleanupWorker.Enqueue}
 * @param name the supervisor's actor name
 */
record NetnsParent(
        ActorRef<NamespaceSupervisor.Command> supervisor, ActorRef<CleanupWorker.Command> cleanup, String name)
        implements NetnsEnv.Parent {
    @Override
    public void setupFinished(long id, boolean ok) {
        supervisor.tell(new NamespaceSupervisor.SetupFinished(id, ok));
    }

    @Override
    public void cleanupListAdd(long id, ActorRef<NetNamespace.Command> netns) {
        cleanup.tell(new CleanupWorker.Enqueue(id, netns));
    }
}
