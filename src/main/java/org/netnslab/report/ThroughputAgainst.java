package org.netnslab.report;

import java.util.Locale;
import org.netnslab.metrics.Comparison;
import org.netnslab.workload.procevents.ProcEventsWorkload;

/** The note beside a comparison whose designs' throughputs go the other way than its measure. Stateless. */
final class ThroughputAgainst {
    private ThroughputAgainst() {}

    /** A throughput ratio beyond this (or under its inverse) against the measure's verdict is said beside it. */
    static final double THROUGHPUT_AGAINST = 2;

    /**
     * @param bBetter whether the measure found b better than a; null when it found them alike
     * @return {@code "; yet b's throughput is ..."} when b's throughput goes the other way by more than
     *     {@link #THROUGHPUT_AGAINST}, or differs by that much from a's where the measure found them alike (a churn's
     *     loop wall holds none of the waits for net_free that its lifecycles/s does), else ""; never between rates in
     *     other units or of proc connector deliveries
     */
    static String note(RunRecord r, Comparison c, Boolean bBetter) {
        DesignRecord a = null;
        DesignRecord b = null;
        for (DesignRecord d : r.designs()) {
            a = d.name().equals(c.a()) ? d : a;
            b = d.name().equals(c.b()) ? d : b;
        }
        if (a == null || b == null || !(a.throughputPerSec() > 0) || !(b.throughputPerSec() > 0)) {
            return "";
        }
        // rates in other units do not compare, and a rate of deliveries falls by what a filter leaves out by design
        // a unit is null when result-extra.json could not be read back: then nothing says the rates compare
        if (a.throughputUnit() == null
                || !a.throughputUnit().equals(b.throughputUnit())
                || b.throughputUnit().equals(ProcEventsWorkload.DELIVERED)) {
            return "";
        }
        double t = b.throughputPerSec() / a.throughputPerSec();
        boolean against = bBetter == null
                ? t < 1 / THROUGHPUT_AGAINST || t > THROUGHPUT_AGAINST
                : bBetter ? t < 1 / THROUGHPUT_AGAINST : t > THROUGHPUT_AGAINST;
        if (!against) {
            return "";
        }
        return String.format(
                Locale.ROOT,
                "; yet %s's throughput is %sx %s's (%s vs %s %s/s): %s leaves out much of what they cost",
                c.b(),
                t < 0.1 ? String.format(Locale.ROOT, "%.2g", t) : RatioVerdict.fmt2(t),
                c.a(),
                RatioVerdict.num(b.throughputPerSec()),
                RatioVerdict.num(a.throughputPerSec()),
                b.throughputUnit(),
                c.measure());
    }
}
