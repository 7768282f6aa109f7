package org.netnslab.cli;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.netnslab.report.ConsoleReport;
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
        java.util.Map<String, List<String>> includedBy = includes(files);
        java.util.Map<String, List<String>> includes = new java.util.TreeMap<>(); // the same, by including file
        includedBy.forEach((to, froms) -> froms.forEach(
                from -> includes.computeIfAbsent(from, k -> new ArrayList<>()).add(to)));
        for (Path f : files) {
            List<String> by = includedBy.get(f.getFileName().toString());
            List<String> cycle = cycle(f.getFileName().toString(), includes);
            if (!cycle.isEmpty()) { // as validate says of it: no scenario can load it
                System.out.printf("%s%n    INVALID: a cycle of includes: %s%n", f, String.join(" -> ", cycle));
                invalid++;
                continue;
            }
            if (by != null) { // a fragment others include: no scenario of its own
                System.out.printf("%s%n    included by %s%n", f, String.join(", ", by));
                continue;
            }
            System.out.println(f);
            System.out.flush(); // before the load's warnings on stderr, which are this file's
            try {
                Scenario s = new ScenarioLoader().load(f, List.of(), 1.0);
                System.out.printf( // one line each, as run's header prints them
                        "    name: %s%n    seed: %s%n    %s%n",
                        s.name(), ConsoleReport.oneLine(s.seed()), ConsoleReport.oneLine(s.description()));
            } catch (ScenarioException e) {
                System.out.printf("    INVALID: %s%n", e.problems.get(0));
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

    /**
     * @param name a file of the folder
     * @param includes the folder's includes, by including file
     * @return the files of a cycle of includes through {@code name}, from it back to it, or empty when it is in none
     */
    private static List<String> cycle(String name, java.util.Map<String, List<String>> includes) {
        java.util.ArrayDeque<List<String>> paths = new java.util.ArrayDeque<>();
        paths.add(List.of(name));
        java.util.Set<String> seen = new java.util.HashSet<>();
        while (!paths.isEmpty()) { // breadth first: the shortest cycle
            List<String> path = paths.poll();
            for (String next : includes.getOrDefault(path.get(path.size() - 1), List.of())) {
                List<String> longer = new ArrayList<>(path);
                longer.add(next);
                if (next.equals(name)) {
                    return longer;
                }
                if (seen.add(next)) {
                    paths.add(longer);
                }
            }
        }
        return List.of();
    }

    /**
     * @param files the folder's scenario files
     * @return the names of those another of them includes, with the names of the files that include each
     */
    private static java.util.Map<String, List<String>> includes(List<Path> files) {
        java.util.Map<String, List<String>> by = new java.util.TreeMap<>();
        for (Path f : files) {
            String text;
            try {
                text = Files.readString(f);
            } catch (IOException | java.io.UncheckedIOException e) {
                continue; // the load below says what is wrong with it
            }
            for (String name : org.netnslab.settings.Includes.named(text)) {
                by.computeIfAbsent(name, k -> new ArrayList<>())
                        .add(f.getFileName().toString());
            }
        }
        return by;
    }
}
