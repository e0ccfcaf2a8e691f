package com.acme.benchmark;

public record Change(String id) {
}
