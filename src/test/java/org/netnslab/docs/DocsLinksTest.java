package org.netnslab.docs;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.Test;
import org.netnslab.report.Verdict;
import org.scalatestplus.junit.JUnitSuite;

/**
 * Issue #22: README.md is a front page and docs/ holds the rest; every relative link in them resolves (the
 * file exists and, with a {@code #fragment}, has a heading of that GitHub anchor), and so does the link the
 * verdict prints for a disagreement.
 */
public class DocsLinksTest extends JUnitSuite {
    private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)\\)");

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

    @Test
    public void everyRelativeLinkInTheReadmeAndDocsResolves() throws Exception {
        List<Path> files = new ArrayList<>(List.of(Path.of("README.md")));
        try (Stream<Path> docs = Files.list(Path.of("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
        }
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
    public void theReadmeIsAFrontPageAndEveryDocSaysWhatItAnswers() throws Exception {
        List<String> readme = Files.readAllLines(Path.of("README.md"));
        assertTrue("README.md has " + readme.size() + " lines", readme.size() <= 220);
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
