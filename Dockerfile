# Osprey on Debian 12: the same install and build as the README's first command, then
# `cmake --install` (programs in /usr/local/bin, configuration in /usr/local/etc/osprey/).
#   docker build -t osprey .
#   docker run --rm -v "$PWD:/data" osprey -r /data/capture.pcap -S /data/rules.rules -l /data/logs
FROM debian:12
RUN apt-get update && apt-get install -y --no-install-recommends python3 python3-pip ca-certificates \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src/osprey
COPY . .
# tools/install-deps.sh brings the libraries (libnghttp2-dev for HTTP/2 among them)
RUN bash tools/install-deps.sh \
    && cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release \
    && ninja -C build \
    && cmake --install build \
    && mkdir -p /var/log/osprey /var/lib/osprey/rules
# the installed osprey.yaml finds its tables beside itself: any working directory works
WORKDIR /data
ENTRYPOINT ["osprey", "-c", "/usr/local/etc/osprey/osprey.yaml"]
CMD ["--help"]
