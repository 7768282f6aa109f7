package org.netnslab.workload.soak;

import org.netnslab.workload.ListenerInvariants;

/** An isolation soak's totals, summed over its rounds. Written by the design's runner thread only. */
final class SoakTotals {
    long rounds;
    long listeners;
    long stalled;
    long listenersFailed;
    long deliveries;
    long injectionsOk;
    long injectionsEperm;
    long unauthorisedSent;
    long authorisedRefused;
    long unauthorisedDelivered;
    long tagged;
    long untagged;
    long otherErrors;
    long retries;
    ListenerInvariants listened = ListenerInvariants.NONE;

    /** Adds a sender task's answers. */
    void add(SoakSender.Tally tally, boolean untaggedTask, boolean taggedTask) {
        retries += tally.retries();
        otherErrors += tally.other();
        if (untaggedTask) {
            untagged += tally.sent();
        } else if (taggedTask) {
            tagged += tally.sent();
        } else {
            injectionsOk += tally.sent();
            injectionsEperm += tally.eperm();
            if (tally.permitted()) {
                authorisedRefused += tally.eperm();
            } else {
                unauthorisedSent += tally.sent();
            }
        }
    }

    /**
     * Adds a listener's figures at its round's end.
     *
     * @param l the listener
     * @param expected messages sent into its netns while it was bound
     * @param failedByFault its stream was failed by the fault switch
     */
    void add(SoakListener l, long expected, boolean failedByFault) {
        listeners++;
        stalled += l.stalled ? 1 : 0;
        deliveries += l.received;
        unauthorisedDelivered += l.forged;
        listenersFailed += failedByFault ? 1 : 0;
        listened = listened.plus(l.invariants(expected, failedByFault));
    }
}
