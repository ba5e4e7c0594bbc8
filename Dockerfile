# Osprey on Debian 12: the same install and build as the README's first command.
FROM debian:12
RUN apt-get update && apt-get install -y --no-install-recommends python3 python3-pip ca-certificates \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src/osprey
COPY . .
RUN bash tools/install-deps.sh \
    && cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release \
    && ninja -C build \
    && install -m 755 build/bin/* /usr/local/bin/ \
    && mkdir -p /etc/osprey && cp etc/osprey.yaml /etc/osprey/
ENTRYPOINT ["osprey-trace"]
CMD ["-h"]
