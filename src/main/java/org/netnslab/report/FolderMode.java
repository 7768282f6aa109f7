package org.netnslab.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/** What a run's output folder keeps of the folder it replaces. Stateless. */
final class FolderMode {
    private FolderMode() {}

    /**
     * Gives the new folder the old one's owner, group and whole mode (setgid and sticky bits too), so that a run into a
     * folder its user made private or shared leaves it so (the swap puts a new folder, made with the default mode, in
     * its place). Where the owner cannot be given (not root), the new folder is the running user's and a warning says
     * so.
     */
    static void keep(Path old, Path fresh) throws IOException {
        java.util.Map<String, Object> a;
        try {
            a = Files.readAttributes(old, "unix:uid,gid,mode", LinkOption.NOFOLLOW_LINKS);
        } catch (UnsupportedOperationException e) { // no unix view: the POSIX permissions, where there are any
            try {
                Files.setPosixFilePermissions(fresh, Files.getPosixFilePermissions(old, LinkOption.NOFOLLOW_LINKS));
            } catch (UnsupportedOperationException none) { // a file system without modes has none to keep
                return;
            }
            return;
        }
        try {
            Files.setAttribute(fresh, "unix:gid", a.get("gid"));
            Files.setAttribute(fresh, "unix:uid", a.get("uid"));
        } catch (java.nio.file.FileSystemException e) {
            System.err.println("netns-lab: warning: " + old + "'s owner and group could not be kept ("
                    + (e.getReason() == null ? e.getClass().getSimpleName() : e.getReason())
                    + "): the new folder is the running user's");
        }
        Files.setAttribute(fresh, "unix:mode", a.get("mode")); // after the chown, which clears setgid
    }
}
