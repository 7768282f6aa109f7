package org.netnslab.cli;

import com.typesafe.config.ConfigException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.netnslab.scenario.LoadedRun;
import org.netnslab.scenario.ScenarioException;
import org.netnslab.settings.ConfigProblem;

/**
 * The command line's loading of a scenario ({@link LoadedRun#load}) for {@code run}, {@code validate} and a
 * worker: what is wrong is printed on stderr, each problem named by the option the user typed.
 */
final class LoadedScenario {
    private LoadedScenario() {}

    /** @return the loaded scenario, or null once every problem has been printed to stderr */
    static LoadedRun orReport(Path file, List<String> sets, double scale, Path config) {
        return orReport(file, sets, scale, config, Map.of());
    }

    /**
     * @param typed for a --set the tool made from another option, e.g. {@code --set machine.cpus=[1, 2]} from
     *     {@code --sweep machine.cpus=1,2}: the option the user typed, which a problem then names instead
     * @return the loaded scenario, or null once every problem has been printed to stderr
     */
    static LoadedRun orReport(Path file, List<String> sets, double scale, Path config, Map<String, String> typed) {
        try {
            return LoadedRun.load(file, sets, scale, config);
        } catch (ScenarioException e) {
            Map<String, String> names = new java.util.HashMap<>(typed);
            // a bare x.conf is parsed as ./x.conf (for its includes): its problems name it as the user did
            String parsed = org.netnslab.settings.HoconSyntax.withFolder(file).toString();
            if (!parsed.equals(file.toString())) {
                names.put(parsed, file.toString());
            }
            System.err.println("netns-lab: "
                    + (names.isEmpty()
                                    ? e
                                    : new ScenarioException(e.problems.stream()
                                            .map(p -> new ConfigProblem(
                                                    names.getOrDefault(p.source(), p.source()),
                                                    p.line(),
                                                    p.path(),
                                                    p.message()))
                                            .toList()))
                            .getMessage());
            return null;
        } catch (ConfigException | IllegalArgumentException e) {
            System.err.println("netns-lab: configuration: " + e.getMessage());
            return null;
        }
    }
}
