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

    /** @param problems at least one problem; the message lists them by file, in the order files first appear, then line */
    public ScenarioException(List<ConfigProblem> problems) {
        super(problems.size() + " configuration problem" + (problems.size() == 1 ? "" : "s") + ":\n  "
                + byLine(problems).stream()
                        .limit(LISTED)
                        .map(ConfigProblem::toString)
                        .collect(Collectors.joining("\n  "))
                + (problems.size() > LISTED
                        ? "\n  ... and " + (problems.size() - LISTED) + " more (the first " + LISTED + " shown)"
                        : ""));
        this.problems = List.copyOf(problems);
    }

    /** @return the problems by file (in the order files first appear), then line; a problem with no line first */
    private static List<ConfigProblem> byLine(List<ConfigProblem> problems) {
        List<String> files = problems.stream()
                .map(p -> String.valueOf(p.source()))
                .distinct()
                .toList();
        return problems.stream()
                .sorted(java.util.Comparator.<ConfigProblem>comparingInt(p -> files.indexOf(String.valueOf(p.source())))
                        .thenComparingInt(p -> Math.max(0, p.line())))
                .toList();
    }
}
