package org.netnslab.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.netnslab.settings.SavedFile;

/**
 * The list of files a run wrote into its output folder, saved beside them as
 * {@value #FILE_NAME} (JSON): what a later run into the same folder may replace, and nothing else.
 *
 * <p>{@link #check} is the rule a run applies to its {@code --out} folder before it starts: a folder
 * that is missing or empty is fine; a folder whose every entry is a regular file its manifest lists
 * (or the manifest itself) is fine, and those files are what the run will replace; anything else (a
 * user's own file, a folder, a symbolic link, even one named like a result, or content with no
 * manifest at all, such as the output of a netns-lab version that wrote none) refuses the run.
 *
 * @param tool the tool and version that wrote the folder, e.g. {@code netns-lab 0.1.0}
 * @param scenario the scenario's name
 * @param written when the run finished writing, ISO-8601 UTC
 * @param files the names of the files written into the folder (no paths), the manifest not included
 */
public record OutputManifest(String tool, String scenario, String written, List<String> files) {
    /** The manifest's file name in the output folder. */
    public static final String FILE_NAME = ".netns-lab-manifest";
    /** How many unexpected entries a refusal names before "and N more". */
    static final int NAMED = 5;

    /** Strict as the other files a run writes and reads back: a key given twice or a second value is said. */
    private static final ObjectMapper MAPPER = SavedFile.mapper();

    /**
     * @param tool the tool and version
     * @param scenario the scenario's name
     * @param files the files written, by name
     * @return a manifest stamped with the current time
     */
    public static OutputManifest now(String tool, String scenario, List<String> files) {
        return new OutputManifest(tool, scenario, Instant.now().toString(), List.copyOf(files));
    }

    /**
     * Writes the manifest as {@code dir/}{@value #FILE_NAME}.
     *
     * @param dir the folder the files are in
     * @throws IOException when it cannot be written
     */
    public void write(Path dir) throws IOException {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("tool", tool);
        root.put("scenario", scenario);
        root.put("written", written);
        ArrayNode list = root.putArray("files");
        files.forEach(list::add);
        MAPPER.writeValue(dir.resolve(FILE_NAME).toFile(), root);
    }

    /**
     * Reads {@code dir/}{@value #FILE_NAME}.
     *
     * @param dir an output folder
     * @return its manifest, or null when it has none
     * @throws OutputFolderException naming the file when it exists but is not a manifest
     */
    public static OutputManifest read(Path dir) throws OutputFolderException {
        Path file = dir.resolve(FILE_NAME);
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new OutputFolderException(file + ": not a regular file, so not a manifest netns-lab wrote; choose"
                    + " another --out or empty " + dir);
        }
        JsonNode root;
        try {
            root = SavedFile.json(MAPPER, SavedFile.utf8(SavedFile.read(file)));
        } catch (SavedFile.Problem e) {
            throw new OutputFolderException(
                    file + ": cannot read it as a netns-lab manifest (" + e.getMessage() + "); choose another --out or"
                            + " empty " + dir,
                    e);
        }
        JsonNode list = root == null ? null : root.get("files");
        if (list == null || !list.isArray()) {
            throw new OutputFolderException(
                    file + ": files: missing or not a list; choose another --out or empty " + dir);
        }
        List<String> files = new ArrayList<>();
        for (JsonNode f : list) {
            String name = f.asText("");
            // a name, never a path: a manifest must not let a run reach outside its folder
            if (!f.isTextual() || name.isEmpty() || name.contains("/") || name.equals(".") || name.equals("..")) {
                throw new OutputFolderException(
                        file + ": files: " + f + " is not a file name; choose another --out or" + " empty " + dir);
            }
            files.add(name);
        }
        return new OutputManifest(
                root.path("tool").asText(""),
                root.path("scenario").asText(""),
                root.path("written").asText(""),
                List.copyOf(files));
    }

    /**
     * The output-folder rule, checked before a run starts. Never follows a symbolic link: a link in
     * the folder is an unexpected entry even when its name is listed, and {@code dir} itself must not
     * be one.
     *
     * @param dir the {@code --out} folder
     * @return the manifest of the earlier run whose files the run will replace, or null when the folder
     *     is missing or empty
     * @throws OutputFolderException saying why the run may not write there and what to do: dir is a
     *     file or a link, holds an entry no manifest lists (the first {@value #NAMED} are named), or its
     *     manifest is unreadable
     * @throws IOException when the folder cannot be listed
     */
    public static OutputManifest check(Path dir) throws OutputFolderException, IOException {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        if (Files.isSymbolicLink(dir)) {
            throw new OutputFolderException(dir + ": a symbolic link; a run replaces its output folder as a whole, so"
                    + " name the folder itself (" + Files.readSymbolicLink(dir) + ") or another --out");
        }
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            throw new OutputFolderException(dir + ": a file of that name exists; choose another --out");
        }
        OutputManifest manifest = read(dir);
        List<String> unexpected = new ArrayList<>();
        int entries = 0;
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) {
                entries++;
                String name = p.getFileName().toString();
                if (name.equals(FILE_NAME)) {
                    continue;
                }
                boolean listed = manifest != null && manifest.files().contains(name);
                if (!listed || !Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                    unexpected.add(describe(p));
                }
            }
        } catch (NoSuchFileException e) {
            return null; // removed meanwhile: as good as missing
        }
        if (entries == 0) {
            return null;
        }
        if (unexpected.isEmpty()) {
            return manifest;
        }
        unexpected.sort(null);
        String named = String.join(", ", unexpected.subList(0, Math.min(NAMED, unexpected.size())))
                + (unexpected.size() > NAMED ? " and " + (unexpected.size() - NAMED) + " more" : "");
        String why = manifest == null
                ? "holds " + entries + " entr" + (entries == 1 ? "y" : "ies") + " and no " + FILE_NAME
                        + " (a netns-lab run" + " writes one; an older version's output folder has none): " + named
                : "holds " + unexpected.size() + " entr" + (unexpected.size() == 1 ? "y" : "ies") + " that its "
                        + FILE_NAME + " does not list: " + named;
        throw new OutputFolderException(dir + ": " + why + "; a run replaces only the files an earlier run listed in"
                + " its manifest: choose another --out, or empty the folder");
    }

    /** An entry as a refusal names it: a folder with a trailing slash, a link with its target. */
    private static String describe(Path p) {
        String name = p.getFileName().toString();
        if (Files.isSymbolicLink(p)) {
            try {
                return name + " -> " + Files.readSymbolicLink(p);
            } catch (IOException e) {
                return name + " (a symbolic link)";
            }
        }
        return Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) ? name + "/" : name;
    }
}
