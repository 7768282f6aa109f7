package org.netnslab.scenario;

import java.util.List;
import java.util.stream.Collectors;
import org.netnslab.settings.ConfigProblem;

/**
 * A scenario that cannot run as written: every problem found, each with file, line and key. The CLI
 * exits with status 2 on it.
 */
public final class ScenarioException extends Exception {
    private static final long serialVersionUID = 1L;

    /** Every problem found, in the order the checks met them. */
    public final transient List<ConfigProblem> problems;

    /** The problems the message lists at most; the rest are counted (all stay in {@link #problems}). */
    static final int LISTED = 50;

    /** @param problems at least one problem */
    public ScenarioException(List<ConfigProblem> problems) {
        super(problems.size() + " configuration problem" + (problems.size() == 1 ? "" : "s") + ":\n  "
                + problems.stream().limit(LISTED).map(ConfigProblem::toString).collect(Collectors.joining("\n  "))
                + (problems.size() > LISTED
                        ? "\n  ... and " + (problems.size() - LISTED) + " more (the first " + LISTED + " shown)"
                        : ""));
        this.problems = List.copyOf(problems);
    }
}
