package org.netnslab.netns;

/**
 * A class of the bottom netns layer (beside the protocol) that names the supervisor above it: what
 * ArchitectureTest's netns layering must reject.
 */
final class ProtocolThatNamesTheSupervisor {
    private ProtocolThatNamesTheSupervisor() {}

    static long netnsOf(NamespaceSupervisor.CreateNetns request) {
        return request.owner().hashCode();
    }
}
