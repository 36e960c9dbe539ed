// Command etcd runs a single-member etcd through go.etcd.io/etcd/server/v3/embed, for the envtest-style tier of
// katalog/testing. It accepts the subset of upstream etcd's flags (same names, same meaning) that a test control
// plane passes, so the launcher can start this binary or an upstream etcd from KUBEBUILDER_ASSETS alike.
// It stops cleanly on SIGTERM or SIGINT and exits non-zero when the server fails.
package main

import (
	"flag"
	"fmt"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
)

func parseURLs(flagName, list string) ([]url.URL, error) {
	var urls []url.URL
	for _, raw := range strings.Split(list, ",") {
		u, err := url.Parse(strings.TrimSpace(raw))
		if err != nil {
			return nil, fmt.Errorf("--%s: %q is not a URL: %w", flagName, raw, err)
		}
		urls = append(urls, *u)
	}
	return urls, nil
}

func run() error {
	cfg := embed.NewConfig()
	flags := flag.NewFlagSet("etcd", flag.ContinueOnError)
	dataDir := flags.String("data-dir", "", "directory for the member's data (required)")
	name := flags.String("name", "default", "member name")
	listenClient := flags.String("listen-client-urls", "http://127.0.0.1:2379", "URLs to serve clients on")
	advertiseClient := flags.String("advertise-client-urls", "", "client URLs advertised to the cluster (defaults to --listen-client-urls)")
	listenPeer := flags.String("listen-peer-urls", "http://127.0.0.1:2380", "URLs to talk to peers on")
	advertisePeer := flags.String("initial-advertise-peer-urls", "", "peer URLs advertised to the cluster (defaults to --listen-peer-urls)")
	initialCluster := flags.String("initial-cluster", "", "name=peerURL of the one member (defaults to --name=--initial-advertise-peer-urls)")
	unsafeNoFsync := flags.Bool("unsafe-no-fsync", false, "skip fsync: faster, loses data on a crash (test use only)")
	quota := flags.Int64("quota-backend-bytes", 0, "backend size limit in bytes (0: etcd's default)")
	logLevel := flags.String("log-level", "warn", "debug, info, warn or error")
	if err := flags.Parse(os.Args[1:]); err != nil {
		return err
	}
	if *dataDir == "" {
		return fmt.Errorf("--data-dir is required")
	}
	if *advertiseClient == "" {
		*advertiseClient = *listenClient
	}
	if *advertisePeer == "" {
		*advertisePeer = *listenPeer
	}
	var err error
	if cfg.ListenClientUrls, err = parseURLs("listen-client-urls", *listenClient); err != nil {
		return err
	}
	if cfg.AdvertiseClientUrls, err = parseURLs("advertise-client-urls", *advertiseClient); err != nil {
		return err
	}
	if cfg.ListenPeerUrls, err = parseURLs("listen-peer-urls", *listenPeer); err != nil {
		return err
	}
	if cfg.AdvertisePeerUrls, err = parseURLs("initial-advertise-peer-urls", *advertisePeer); err != nil {
		return err
	}
	cfg.Name = *name
	cfg.Dir = *dataDir
	cfg.InitialCluster = *initialCluster
	if cfg.InitialCluster == "" {
		cfg.InitialCluster = cfg.InitialClusterFromName(*name)
	}
	cfg.UnsafeNoFsync = *unsafeNoFsync
	cfg.QuotaBackendBytes = *quota
	cfg.LogLevel = *logLevel

	server, err := embed.StartEtcd(cfg)
	if err != nil {
		return fmt.Errorf("starting etcd: %w", err)
	}
	defer server.Close()
	select {
	case <-server.Server.ReadyNotify():
	case <-time.After(5 * time.Minute):
		return fmt.Errorf("etcd did not become ready within 5 minutes")
	}
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT)
	select {
	case <-signals:
		return nil
	case err := <-server.Err():
		return fmt.Errorf("etcd failed: %w", err)
	}
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "etcd:", err)
		os.Exit(1)
	}
}
