package org.netnslab.netns;

/** The answer to {@link NamespaceSupervisor.CreateNetns}: the new netns's handle, or why setup_net failed. */
public sealed interface CreateResult permits NetnsHandle, CreateResult.Failed {
    /**
     * setup_net failed; the ops already run were undone and nothing of the netns is left.
     *
     * @param netnsId the id the netns would have had
     * @param reason the failing op and its error
     */
    record Failed(long netnsId, String reason) implements CreateResult {}
}
