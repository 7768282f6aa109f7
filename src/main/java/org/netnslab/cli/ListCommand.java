package org.netnslab.cli;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.netnslab.scenario.Scenario;
import org.netnslab.scenario.ScenarioException;
import org.netnslab.scenario.ScenarioLoader;
import org.netnslab.settings.SavedFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code list}: the scenarios in a folder with their name, seed and description; an invalid one with its first
 * problem. Exit 2 when the folder is missing, unreadable or holds no scenario.
 */
@Command(name = "list", description = "List the scenarios in load-tests/.")
final class ListCommand implements Callable<Integer> {
    @Option(
            names = "--dir",
            paramLabel = "DIR",
            description = "folder of scenario files (default: load-tests/ beside the launcher, else ./load-tests)")
    Path dir;

    @Override
    public Integer call() {
        if (dir == null) {
            String home = System.getProperty("netns-lab.home");
            dir = home != null ? Path.of(home, "load-tests") : Path.of("load-tests");
        }
        if (dir.toString().isEmpty()) {
            System.err.println("netns-lab: --dir: an empty path; give a folder of scenario files, e.g. load-tests");
            return Main.EXIT_CONFIG;
        }
        if (!Files.isDirectory(dir)) {
            System.err.println(
                    "netns-lab: --dir " + dir + ": " + (Files.exists(dir) ? "not a folder" : "no such folder"));
            return Main.EXIT_CONFIG;
        }
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "*.conf")) {
            ds.forEach(files::add);
        } catch (IOException e) {
            System.err.println("netns-lab: cannot read " + dir + ": " + SavedFile.reason(e));
            return Main.EXIT_CONFIG;
        }
        files.sort(null);
        if (files.isEmpty()) {
            System.err.println("netns-lab: no *.conf scenario in " + dir);
            return Main.EXIT_CONFIG;
        }
        int invalid = 0;
        for (Path f : files) {
            try {
                Scenario s = new ScenarioLoader().load(f, List.of(), 1.0);
                System.out.printf("%s%n    name: %s%n    seed: %s%n    %s%n", f, s.name(), s.seed(), s.description());
            } catch (ScenarioException e) {
                System.out.printf("%s%n    INVALID: %s%n", f, e.problems.get(0));
                invalid++;
            }
        }
        if (invalid > 0) { // as validate would say of each: a script can tell
            System.err.printf(
                    "netns-lab: %d of %d scenario(s) in %s INVALID (validate FILE says why)%n",
                    invalid, files.size(), dir);
            return Main.EXIT_CONFIG;
        }
        return 0;
    }
}
