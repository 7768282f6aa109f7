package org.netnslab.scenario;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.netnslab.settings.ConfigProblem;

/**
 * The top-level keys of a {@code --config} file. The tool reads {@code netns-lab} and {@code akka}, and blocks a
 * setting names by path (a dispatcher of your own for {@code netns-lab.dispatcher}); a bare value at the top, a key
 * that misspells one of the two (such as {@code netnslab}) or a scenario file given as {@code --config} would be
 * ignored without a word, so they are refused.
 */
final class ScenarioKeysInConfig {
    /** The keys a scenario file has at its top and a {@code --config} file does not. */
    private static final Set<String> SCENARIO_KEYS = Set.of("name", "designs", "workload", "baseline", "seed");

    private ScenarioKeysInConfig() {}

    /**
     * @param user the {@code --config} file, parsed
     * @param file its path, to name it
     * @return a problem per top-level key that nothing reads (a bare value, a misspelt {@code netns-lab} or {@code
     *     akka}), by line; one for the whole file when it looks like a scenario
     */
    static List<ConfigProblem> check(Config user, Path file) {
        List<Map.Entry<String, ConfigValue>> others = new ArrayList<>();
        for (Map.Entry<String, ConfigValue> e : user.root().entrySet()) {
            String k = e.getKey();
            if (!k.equals("netns-lab")
                    && !k.equals("akka")
                    && (e.getValue().valueType() != ConfigValueType.OBJECT
                            || SCENARIO_KEYS.contains(k)
                            || misspelt(k))) {
                others.add(e);
            }
        }
        others.sort(Comparator.comparingInt(e -> e.getValue().origin().lineNumber()));
        List<ConfigProblem> problems = new ArrayList<>();
        if (others.stream().filter(e -> SCENARIO_KEYS.contains(e.getKey())).count() >= 2) {
            problems.add(new ConfigProblem(
                    file.toString(),
                    -1,
                    "--config",
                    "looks like a scenario file (it has "
                            + String.join(
                                    ", ",
                                    others.stream()
                                            .map(Map.Entry::getKey)
                                            .filter(SCENARIO_KEYS::contains)
                                            .toList())
                            + "): give it as the scenario (netns-lab run " + file + "); --config takes netns-lab.* and"
                            + " akka.* settings"));
            return problems;
        }
        for (Map.Entry<String, ConfigValue> e : others) {
            problems.add(new ConfigProblem(
                    file.toString(),
                    e.getValue().origin().lineNumber(),
                    e.getKey(),
                    (e.getValue().valueType() == ConfigValueType.OBJECT
                                    ? "nothing reads it: did you mean netns-lab or akka?"
                                    : "a value nothing reads")
                            + " (a --config file sets netns-lab.*, akka.* and blocks they name by path, such as a"
                            + " dispatcher)"));
        }
        return problems;
    }

    /** @return whether {@code key} reads as {@code netns-lab} or {@code akka} but is neither (netnslab, Akka, ...) */
    private static boolean misspelt(String key) {
        String letters = key.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z]", "");
        return letters.startsWith("netns") || letters.startsWith("akka") || letters.equals("aka");
    }
}
