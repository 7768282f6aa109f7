package org.netnslab.rcu;

import com.typesafe.config.Config;
import java.time.Duration;
import org.netnslab.settings.Setting;

/**
 * A design's RCU settings ({@code netns-lab.model.rcu}): how long the {@link RcuDomain}'s grace
 * periods last, and what the grace-period kernel thread costs. Immutable.
 *
 * @param gracePeriod {@code rcu.grace-period}: a normal grace period (synchronize_rcu, call_rcu), 0..10s
 * @param expeditedGracePeriod {@code rcu.expedited-grace-period}: synchronize_rcu_expedited's, 0..10s
 * @param gpKthread {@code rcu.gp-kthread}: CPU of one run of the grace-period kthread (rcu_gp_kthread), at a
 *     normal grace period's start, at each of its force-quiescent-state scans (every second tick at HZ 250,
 *     {@link GpKthread#fqsJiffies}) and at its end; 0..10ms; charged under the fair scheduler only
 */
public record RcuSettings(Duration gracePeriod, Duration expeditedGracePeriod, Duration gpKthread) {
    /** {@code rcu.grace-period}. */
    public static final Setting<Duration> GRACE_PERIOD = Setting.duration("rcu.grace-period", Duration.ofSeconds(10));
    /** {@code rcu.expedited-grace-period}. */
    public static final Setting<Duration> EXPEDITED_GRACE_PERIOD =
            Setting.duration("rcu.expedited-grace-period", Duration.ofSeconds(10));

    /** {@code rcu.gp-kthread}. */
    public static final Setting<Duration> GP_KTHREAD = Setting.duration("rcu.gp-kthread", Duration.ofMillis(10));

    /** Checks the ranges. */
    public RcuSettings {
        GRACE_PERIOD.check(gracePeriod);
        EXPEDITED_GRACE_PERIOD.check(expeditedGracePeriod);
        GP_KTHREAD.check(gpKthread);
    }

    /**
     * @param model a model config (a design's keys over {@code netns-lab.model})
     * @return the settings
     * @throws com.typesafe.config.ConfigException for a missing key or a wrong type
     * @throws IllegalArgumentException for a value out of range
     */
    public static RcuSettings fromConfig(Config model) {
        return new RcuSettings(GRACE_PERIOD.read(model), EXPEDITED_GRACE_PERIOD.read(model), GP_KTHREAD.read(model));
    }
}
