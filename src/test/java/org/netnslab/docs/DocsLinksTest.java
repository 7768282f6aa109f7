package org.netnslab.docs;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.Test;
import org.netnslab.report.Verdict;
import org.scalatestplus.junit.JUnitSuite;

/**
 * README.md is a front page, ARCHITECTURE.md the code's map, and docs/ holds guides by topic: every relative link
 * in them resolves (the file exists and, with a {@code #fragment}, has a heading of that GitHub anchor), and so
 * do the link the verdict prints for a disagreement and every docs page the code names; every page says what it
 * answers and stays short enough to read (a guide, not a log).
 */
public class DocsLinksTest extends JUnitSuite {
    private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)\\)");
    /** A docs page named in code or configuration, with its anchor if any: {@code docs/x.md#anchor}. */
    private static final Pattern DOCS_PATH = Pattern.compile("docs/[A-Za-z0-9_./-]*\\.md(#[a-z0-9_-]+)?");
    /** The longest a docs page, README.md and ARCHITECTURE.md may be, in lines. */
    static final int DOCS_MAX_LINES = 250;

    static final int README_MAX_LINES = 220;
    static final int ARCHITECTURE_MAX_LINES = 250;

    /** @return GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens */
    static String anchor(String heading) {
        return heading.strip()
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^\\p{L}\\p{N} _-]", "")
                .replace(' ', '-');
    }

    private static List<String> anchors(Path file) throws Exception {
        List<String> out = new ArrayList<>();
        boolean fence = false;
        for (String l : Files.readAllLines(file)) {
            fence ^= l.startsWith("```");
            if (!fence && l.startsWith("#")) {
                out.add(anchor(l.replaceFirst("^#+", "")));
            }
        }
        return out;
    }

    /** @return what is wrong with a link from {@code from}, or null when it resolves */
    static String broken(Path from, String target) throws Exception {
        if (target.matches("[a-z]+:.*")) {
            return null; // http(s), mailto: not this test's to check
        }
        int hash = target.indexOf('#');
        String path = hash < 0 ? target : target.substring(0, hash);
        Path file = path.isEmpty()
                ? from
                : from.getParent() == null ? Path.of(path) : from.getParent().resolve(path);
        if (!Files.exists(file)) {
            return from + ": " + target + ": no such file " + file.normalize();
        }
        if (hash >= 0 && file.toString().endsWith(".md") && !anchors(file).contains(target.substring(hash + 1))) {
            return from + ": " + target + ": " + file.normalize() + " has no heading #" + target.substring(hash + 1);
        }
        return null;
    }

    /** @return every docs/**.md page, sorted */
    static List<Path> docsPages() throws Exception {
        try (Stream<Path> docs = Files.walk(Path.of("docs"))) {
            return docs.filter(p -> p.toString().endsWith(".md")).sorted().toList();
        }
    }

    @Test
    public void everyRelativeLinkInTheReadmeArchitectureAndDocsResolves() throws Exception {
        List<Path> files = new ArrayList<>(List.of(Path.of("README.md"), Path.of("ARCHITECTURE.md")));
        files.addAll(docsPages());
        List<String> broken = new ArrayList<>();
        int links = 0;
        for (Path f : files) {
            Matcher m = LINK.matcher(Files.readString(f));
            while (m.find()) {
                links++;
                String b = broken(f, m.group(1));
                if (b != null) {
                    broken.add(b);
                }
            }
        }
        assertEquals(List.of(), broken);
        assertTrue("the README links its docs: " + links, links >= 10);
        assertEquals(null, broken(Path.of("README.md"), Verdict.WHY));
    }

    @Test
    public void everyDocsPageTheCodeNamesExistsWithItsAnchor() throws Exception {
        List<String> broken = new ArrayList<>();
        int named = 0;
        for (String root : List.of("src/main", "load-tests")) {
            List<Path> sources;
            try (Stream<Path> walk = Files.walk(Path.of(root))) {
                sources = walk.filter(Files::isRegularFile).sorted().toList();
            }
            for (Path source : sources) {
                Matcher m = DOCS_PATH.matcher(Files.readString(source));
                while (m.find()) {
                    named++;
                    String b = broken(Path.of("README.md"), m.group());
                    if (b != null) {
                        broken.add(source + " names " + b);
                    }
                }
            }
        }
        assertEquals(List.of(), broken);
        assertTrue("the code names docs pages: " + named, named >= 10);
    }

    @Test
    public void everyPageIsShortEnoughToReadAndSaysWhatItAnswers() throws Exception {
        List<String> tooLong = new ArrayList<>();
        List<String> noAnswer = new ArrayList<>();
        List<Path> pages = docsPages();
        for (Path page : pages) {
            List<String> lines = Files.readAllLines(page);
            if (lines.size() > DOCS_MAX_LINES) {
                tooLong.add(page + ": " + lines.size() + " lines");
            }
            if (lines.size() < 3
                    || !lines.get(0).startsWith("# ")
                    || !lines.get(2).startsWith("**What this answers:**")) {
                noAnswer.add(page.toString());
            }
        }
        for (Map.Entry<String, Integer> top : Map.of(
                        "README.md", README_MAX_LINES, "ARCHITECTURE.md", ARCHITECTURE_MAX_LINES)
                .entrySet()) {
            int lines = Files.readAllLines(Path.of(top.getKey())).size();
            if (lines > top.getValue()) {
                tooLong.add(top.getKey() + ": " + lines + " lines");
            }
        }
        assertEquals(
                "at most " + DOCS_MAX_LINES + " lines a docs page, README.md " + README_MAX_LINES + ", ARCHITECTURE.md "
                        + ARCHITECTURE_MAX_LINES,
                List.of(),
                tooLong);
        assertEquals("pages without a title and a 'What this answers' line", List.of(), noAnswer);
        assertTrue(
                "the guides, the design notes and the measurements log are all checked: " + pages,
                pages.containsAll(List.of(
                        Path.of("docs", "calibrate.md"),
                        Path.of("docs", "scheduler.md"),
                        Path.of("docs", "design-notes", "kubernetes.md"),
                        Path.of("docs", "measurements", "log.md"))));
    }

    /**
     * @param page a page
     * @param opening the start of the line the list follows
     * @return the list's bullets, each with its continuation lines joined; a line that is neither (a bullet pasted
     *     into another's sentence leaves one) fails
     */
    static List<String> bullets(Path page, String opening) throws Exception {
        List<String> lines = Files.readAllLines(page);
        int i = 0;
        while (!lines.get(i).startsWith(opening)) {
            i++;
        }
        i++;
        while (lines.get(i).isBlank()) {
            i++;
        }
        List<String> bullets = new ArrayList<>();
        for (; i < lines.size() && !lines.get(i).isBlank(); i++) {
            String l = lines.get(i);
            if (l.startsWith("- ")) {
                bullets.add(l.substring(2));
            } else {
                assertTrue(page + ": neither a bullet nor its continuation: " + l, l.startsWith("  "));
                bullets.set(bullets.size() - 1, bullets.get(bullets.size() - 1) + " " + l.strip());
            }
        }
        return bullets;
    }

    /** The exit statuses read in order, each bullet whole: ';' after each, '.' after the last. */
    @Test
    public void theExitStatusListsReadInOrderEachBulletWhole() throws Exception {
        for (Map.Entry<String, List<String>> page : Map.of(
                        "docs/exit-codes-and-reliability.md#Exit status", List.of("0", "1", "2", "3", "129"),
                        "README.md#Exit status (", List.of("0", "1", "2", "3"))
                .entrySet()) {
            String[] at = page.getKey().split("#");
            List<String> bullets = bullets(Path.of(at[0]), at[1].endsWith("(") ? at[1] : "## " + at[1]);
            assertEquals(
                    page.getKey(),
                    page.getValue(),
                    bullets.stream()
                            .map(b -> b.replaceFirst("^`(\\d+)`.*", "$1"))
                            .toList());
            for (int i = 0; i < bullets.size(); i++) {
                String b = bullets.get(i);
                assertTrue(
                        at[0] + ": a bullet is one sentence part: " + b,
                        b.endsWith(i + 1 < bullets.size() ? ";" : "."));
            }
        }
    }

    @Test
    public void architectureNamesEveryPackage() throws Exception {
        String map = Files.readString(Path.of("ARCHITECTURE.md"));
        Path root = Path.of("src", "main", "java", "org", "netnslab");
        List<String> missing = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path dir : walk.filter(Files::isDirectory)
                    .filter(d -> !d.equals(root))
                    .sorted()
                    .toList()) {
                String name = root.relativize(dir).toString().replace('/', '.');
                String last = dir.getFileName().toString();
                if (!map.contains("`" + name + "`") && !map.contains("`" + last + "`")) {
                    missing.add(name);
                }
            }
        }
        assertEquals("packages ARCHITECTURE.md does not name", List.of(), missing);
    }

    @Test
    public void theReadmeIsAFrontPageAndEveryDocSaysWhatItAnswers() throws Exception {
        List<String> readme = Files.readAllLines(Path.of("README.md"));
        assertTrue("README.md has " + readme.size() + " lines", readme.size() <= README_MAX_LINES);
        assertTrue(
                "the exit statuses include --check's",
                readme.contains("- `3` with `--check` only: a comparison with a seed"
                        + " figure DISAGREES or a design broke an invariant it"));
        List<String> commands = readme.stream()
                .filter(l -> l.startsWith("./netns-lab run load-tests/") || l.equals("mvn -B verify"))
                .toList();
        assertEquals(
                List.of("./netns-lab run load-tests/uevent-tc1-userns.conf --scale 0.01", "mvn -B verify"),
                commands.subList(0, 2));
        assertEquals(
                "the last heading (other pages add their line under it)",
                "## More documentation",
                readme.stream()
                        .filter(l -> l.startsWith("## "))
                        .reduce((a, b) -> b)
                        .orElseThrow());
        for (String page : List.of(
                "running-and-options",
                "scenarios",
                "reading-results",
                "virtual-time-and-calibration",
                "scale-and-heap",
                "embedding",
                "exit-codes-and-reliability",
                "limits-of-the-model",
                "how-the-model-works",
                "developing")) {
            {
                Path d = Path.of("docs", page + ".md");
                List<String> lines = Files.readAllLines(d);
                assertTrue(d + " starts with a title", lines.get(0).startsWith("# "));
                assertTrue(d + " says what it answers", lines.get(2).startsWith("**What this answers:**"));
            }
        }
    }
}
