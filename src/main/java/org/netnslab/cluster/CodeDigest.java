package org.netnslab.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * A digest of netns-lab's own compiled classes, so that two nodes of one version string but built from other code (a
 * host on another commit, a local edit) are told apart: their figures would differ and nothing in the results would
 * say which node made which. Dependencies are pinned by the version's pom; the model's configuration is compared apart
 * ({@link RunInputs#fingerprint}).
 */
public final class CodeDigest {
    private CodeDigest() {}

    private static final String PACKAGE = "org/netnslab/";

    private static volatile String digest;

    /**
     * @return the first 8 bytes of the SHA-256 of every {@code org/netnslab/**.class} of the code this class was
     *     loaded from (a jar or a classes folder), by name then bytes, in hex; computed once
     * @throws UncheckedIOException when the code cannot be read
     */
    public static String of() {
        String d = digest;
        if (d == null) {
            d = compute();
            digest = d;
        }
        return d;
    }

    private static String compute() {
        Path from;
        try {
            from = Path.of(CodeDigest.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
        } catch (URISyntaxException | NullPointerException e) {
            throw new IllegalStateException("netns-lab cannot tell where its classes are loaded from", e);
        }
        Map<String, byte[]> classes = new TreeMap<>(); // a stable order, whatever the jar's or the folder's
        try {
            if (Files.isDirectory(from)) {
                try (Stream<Path> files = Files.walk(from.resolve(PACKAGE))) {
                    for (Path f :
                            files.filter(p -> p.toString().endsWith(".class")).toList()) {
                        classes.put(from.relativize(f).toString().replace('\\', '/'), Files.readAllBytes(f));
                    }
                }
            } else {
                try (JarFile jar = new JarFile(from.toFile())) {
                    for (JarEntry e : jar.stream().toList()) {
                        if (e.getName().startsWith(PACKAGE) && e.getName().endsWith(".class")) {
                            try (InputStream in = jar.getInputStream(e)) {
                                classes.put(e.getName(), in.readAllBytes());
                            }
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read netns-lab's classes at " + from + " for their digest", e);
        }
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
        for (Map.Entry<String, byte[]> c : classes.entrySet()) {
            sha.update(c.getKey().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            sha.update((byte) 0);
            sha.update(c.getValue());
        }
        return HexFormat.of().formatHex(sha.digest(), 0, 8);
    }
}
