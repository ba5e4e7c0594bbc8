# Osprey on Debian 12: the same install and build as the README's first command.
#   docker build -t osprey .
#   docker run --rm -v "$PWD:/data" osprey -r /data/capture.pcap -S /data/rules.rules -l /data/logs
FROM debian:12
RUN apt-get update && apt-get install -y --no-install-recommends python3 python3-pip ca-certificates \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src/osprey
COPY . .
RUN bash tools/install-deps.sh \
    && cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release \
    && ninja -C build \
    && install -m 755 build/bin/osprey build/bin/osprey-trace /usr/local/bin/ \
    && mkdir -p /usr/share/osprey /var/log/osprey \
    && cp -r etc /usr/share/osprey/
# the shipped config names its tables relative to the working directory (etc/...)
WORKDIR /usr/share/osprey
ENTRYPOINT ["osprey", "-c", "/usr/share/osprey/etc/osprey.yaml"]
CMD ["--help"]
