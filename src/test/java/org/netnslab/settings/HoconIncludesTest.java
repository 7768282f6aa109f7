package org.netnslab.settings;

import static org.junit.Assert.assertEquals;

import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigOriginFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.scalatestplus.junit.JUnitSuite;

/**
 * An include Typesafe Config could open but not read, as it reports it (the file read as root here, so the
 * failure is made as Typesafe Config makes it): said at the include's line, without Java's exception.
 */
public class HoconIncludesTest extends JUnitSuite {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    @Test
    public void anIncludeThisUserMayNotReadIsSaidAtItsLine() throws Exception {
        Path f = tmp.newFile("s.conf").toPath();
        Files.writeString(f, "name = x\ninclude required(\"secret.conf\")\n");
        Path secret = f.resolveSibling("secret.conf");
        ConfigException e = new ConfigException.IO(
                ConfigOriginFactory.newFile(secret.toString()),
                secret + ": java.io.FileNotFoundException: " + secret + " (Permission denied)");
        ConfigProblem p = HoconSyntax.parseProblem(f, e, "-");
        assertEquals(f.toString(), p.source());
        assertEquals(2, p.line());
        assertEquals("include", p.path());
        assertEquals("included file secret.conf cannot be read: permission denied", p.message());
    }

    /** A folder that a file this one includes names is said at that file's include. */
    @Test
    public void aFolderANestedFileIncludesIsSaidThere() throws Exception {
        Path dir = tmp.getRoot().toPath();
        java.nio.file.Files.createDirectory(dir.resolve("x.conf"));
        Path f = dir.resolve("outer.conf");
        Files.writeString(f, "name = x\ninclude required(\"nested.conf\")\n");
        Files.writeString(dir.resolve("nested.conf"), "a = 1\ninclude required(\"x.conf\")\n");
        ConfigException e = org.junit.Assert.assertThrows(
                ConfigException.class,
                () -> com.typesafe.config.ConfigFactory.parseFile(
                        f.toFile(),
                        com.typesafe.config.ConfigParseOptions.defaults().setAllowMissing(false)));
        ConfigProblem p = HoconSyntax.parseProblem(f, e, "-");
        assertEquals(dir.resolve("nested.conf").toString(), p.source());
        assertEquals(2, p.line());
        assertEquals("included x.conf is a folder (" + dir.resolve("x.conf") + "): include a HOCON file", p.message());
    }

    /** One a file this one includes makes is said on this file, naming the file it could not read. */
    @Test
    public void anUnreadableIncludeOfAnIncludedFileNamesIt() throws Exception {
        Path f = tmp.newFile("s.conf").toPath();
        Files.writeString(f, "name = x\ninclude required(\"middle.conf\")\n");
        String deep = f.resolveSibling("deep.conf").toString();
        ConfigException e = new ConfigException.IO(
                ConfigOriginFactory.newFile(deep),
                deep + ": java.io.FileNotFoundException: " + deep + " (Permission denied)");
        ConfigProblem p = HoconSyntax.parseProblem(f, e, "-");
        assertEquals(-1, p.line());
        assertEquals("included file " + deep + " cannot be read: permission denied", p.message());
    }
}
