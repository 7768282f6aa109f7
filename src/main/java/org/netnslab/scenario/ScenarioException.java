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

    /** @param problems at least one problem */
    public ScenarioException(List<ConfigProblem> problems) {
        super(problems.size() + " configuration problem" + (problems.size() == 1 ? "" : "s") + ":\n  "
                + problems.stream().map(ConfigProblem::toString).collect(Collectors.joining("\n  ")));
        this.problems = List.copyOf(problems);
    }
}
