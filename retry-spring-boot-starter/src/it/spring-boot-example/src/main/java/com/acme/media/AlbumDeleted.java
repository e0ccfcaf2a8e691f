package com.acme.media;

import java.util.List;

/** The payload the README's retry.yml names. */
public record AlbumDeleted(String album, List<String> photos) {
}
