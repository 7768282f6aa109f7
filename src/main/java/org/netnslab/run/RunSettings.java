package org.netnslab.run;

import com.typesafe.config.Config;
import java.time.Duration;
import org.netnslab.settings.HoconDurations;

/**
 * The runner's own settings ({@code netns-lab.run} in reference.conf).
 *
 * @param askTimeout longest wait for one model request or for listeners to drain
 * @param stallTimeout a phase with no completed transaction for this long fails the run
 * @param progressInterval time between progress reports
 */
public record RunSettings(Duration askTimeout, Duration stallTimeout, Duration progressInterval) {

    /**
     * @param netnsLab the {@code netns-lab} block
     * @return the settings under {@code run}
     */
    public static RunSettings fromConfig(Config netnsLab) {
        return new RunSettings(
                HoconDurations.duration(netnsLab, "run.ask-timeout"),
                HoconDurations.duration(netnsLab, "run.stall-timeout"),
                HoconDurations.duration(netnsLab, "run.progress-interval"));
    }

    /** Checks every duration is positive. */
    public RunSettings {
        for (Duration d : new Duration[] {askTimeout, stallTimeout, progressInterval}) {
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException(
                        "netns-lab.run: ask-timeout, stall-timeout and progress-interval must be"
                                + " > 0, got " + askTimeout.toMillis() + " ms, " + stallTimeout.toMillis() + " ms, "
                                + progressInterval.toMillis() + " ms");
            }
        }
    }
}
