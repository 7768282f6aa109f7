package org.netnslab.fault;

import org.netnslab.settings.Setting;

/**
 * The model's fault switches ({@code netns-lab.model.faults.*}): which actor or stage throws a
 * {@link ModelFault} while handling a message. Test and soak use only; see {@link FaultSettings}.
 */
public enum FaultSwitch {
    /** {@code faults.netns-actor}: a netns actor handling a uevent request (inject, send, tagged kernel uevent). */
    NETNS_ACTOR,
    /** {@code faults.listener}: a uevent listener's reader handling one recvmsg. */
    LISTENER,
    /** {@code faults.cleanup-worker}: the cleanup worker starting cleanup_net over cleanup_list. */
    CLEANUP_WORKER,
    /** {@code faults.proc-connector}: the proc connector handling a published process event (or burst). */
    PROC_CONNECTOR;

    /** @return the key under {@code netns-lab.model}, e.g. {@code faults.netns-actor} */
    public String key() {
        return "faults." + Setting.spell(this);
    }
}
