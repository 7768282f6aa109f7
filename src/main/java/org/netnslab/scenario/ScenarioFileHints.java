package org.netnslab.scenario;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

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
}
