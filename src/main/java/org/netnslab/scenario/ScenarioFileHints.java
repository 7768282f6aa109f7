package org.netnslab.scenario;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.netnslab.settings.ConfigProblem;

/** What a user may have meant, from the files near a scenario file: hints for {@link ScenarioLoader}'s errors. */
final class ScenarioFileHints {
    private ScenarioFileHints() {}

    /** @return {@code "; did you mean X?"} for a scenario file the name leaves its folder or .conf off, else "" */
    static String meant(Path file) {
        Path f = file.normalize();
        if (f.isAbsolute()) { // only the extension can be missing from a full path
            return Files.isRegularFile(Path.of(f + ".conf")) ? "; did you mean " + f + ".conf?" : "";
        }
        for (Path folder : List.of(Path.of(""), Path.of(System.getProperty("netns-lab.home", ".")))) {
            for (String name : List.of(f + ".conf", "load-tests/" + f, "load-tests/" + f + ".conf")) {
                if (Files.isRegularFile(folder.resolve(name))) {
                    return "; did you mean " + folder.resolve(name) + "?";
                }
            }
        }
        return "";
    }

    /**
     * @param scenario a scenario file
     * @return the designs a calibrated.conf beside it defines (the folder {@code netns-lab calibrate} writes), or
     *     none when there is no such file or it does not parse (it is then no help for a hint)
     */
    static Set<String> calibratedDesignsBeside(Path scenario) {
        Path calibrated = scenario.toAbsolutePath().resolveSibling("calibrated.conf");
        if (!Files.isRegularFile(calibrated)) {
            return Set.of();
        }
        try {
            Config c = ConfigFactory.parseFile(calibrated.toFile());
            return c.hasPath("netns-lab.designs")
                    ? c.getObject("netns-lab.designs").keySet()
                    : Set.of();
        } catch (ConfigException e) { // a broken file beside the scenario: no hint, the unknown design is still said
            return Set.of();
        }
    }

    /** A problem naming an unknown design; the first one named (a list of several names them all). */
    private static final java.util.regex.Pattern UNKNOWN_DESIGN =
            java.util.regex.Pattern.compile("^unknown designs? '(.*?)'");

    /**
     * Adds to each unknown-design problem from {@code from} on, whose design the calibrated.conf beside the scenario
     * defines (a scenario calibrate wrote), the {@code --config} that reads it.
     *
     * @param problems the scenario's problems so far
     * @param from the first of them the designs' reading added
     * @param file the scenario file, or null (a built scenario)
     */
    static void calibratedDesigns(List<ConfigProblem> problems, int from, Path file) {
        Set<String> besideDesigns = null; // read only when a design is unknown
        for (int i = from; i < problems.size(); i++) {
            ConfigProblem p = problems.get(i);
            java.util.regex.Matcher m = UNKNOWN_DESIGN.matcher(p.message());
            if (!p.path().equals("designs") || !m.find()) {
                continue;
            }
            if (besideDesigns == null) {
                besideDesigns = file == null ? Set.of() : calibratedDesignsBeside(file);
            }
            if (besideDesigns.contains(m.group(1))) { // a scenario calibrate wrote
                problems.set(
                        i,
                        new ConfigProblem(
                                p.source(),
                                p.line(),
                                p.path(),
                                p.message() + "; the calibrated.conf beside" + " this file defines it: add --config "
                                        + file.resolveSibling("calibrated.conf")));
            }
        }
    }
}
