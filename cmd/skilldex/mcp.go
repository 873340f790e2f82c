package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/build/mcpserver"
	"github.com/skilldex/skilldex/build/report"
	"github.com/skilldex/skilldex/build/siteread"
)

func newMCPCmd() *cobra.Command {
	var site, configFile string
	cmd := &cobra.Command{
		Use:   "mcp [--site DIR|URL]",
		Short: "Serve a catalog's skills to agents as an MCP server on stdio",
		Long: `mcp serves the skills of a site skilldex built to an agent, as a Model
Context Protocol server on standard input and output: the agent starts it
and calls its tools.

  search_skills {query, limit?, type?, tag?, plugin?}   ranked skills:
                  name, description, page URL, install command
  query_skill {query}       the answer skilldex query prints for
                  NAME:PATH[?KEY=GLOB&...]
  get_skill {name, offset?} the skill's instructions as Markdown (in parts
                  of at most 60,000 bytes), and its files

and each skill's Markdown (skilldex://skills/NAME) and llms.txt
(skilldex://llms.txt) as resources.

--site is the site's folder, or the URL it is published at (any sub-path,
such as https://acme.github.io/skills/): only the files each call needs
are read, a few kilobytes for a search. Without --site, mcp builds the
catalog of skilldex.yaml (or --config; the demo catalog when there is
neither) into a temporary folder first, and serves that.

Messages go to standard error; standard output is the protocol's.`,
		Example: `  skilldex mcp --site public
  skilldex mcp --site https://acme.github.io/skills/
  claude mcp add skills -- skilldex mcp --site https://acme.github.io/skills/`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			location := site
			if location == "" {
				dir, cleanup, err := buildForMCP(cmd, configFile)
				defer cleanup()
				if err != nil {
					return err
				}
				location = dir
			}
			s, err := siteread.Open(ctx, location)
			if err != nil {
				return failure(err)
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "skilldex mcp: serving %s on stdio\n", location)
			std := newStdio(cmd.InOrStdin(), cmd.OutOrStdout())
			t := &mcp.IOTransport{Reader: std, Writer: std}
			err = mcpserver.New(s, thisVersion().Module).Run(ctx, t)
			if err == nil || errors.Is(err, io.EOF) || errors.Is(err, context.Canceled) {
				return nil
			}
			return failure(err)
		},
	}
	cmd.Flags().StringVar(&site, "site", "", "the built site: its folder, or the URL it is published at (default: build the catalog of "+ConfigFile+" first)")
	configFlag(cmd, &configFile)
	return cmd
}

// buildForMCP builds the catalog that build would build (skilldex.yaml's,
// or the demo) into a new temporary folder, which cleanup removes, and
// returns the site's folder.
func buildForMCP(cmd *cobra.Command, configFile string) (dir string, cleanup func(), err error) {
	tmp, err := os.MkdirTemp("", "skilldex-mcp-")
	if err != nil {
		return "", func() {}, failure(err)
	}
	f := siteFlags{configFile: configFile}
	p, err := f.plan(cmd, nil)
	if err != nil {
		os.RemoveAll(tmp)
		return "", func() {}, failure(err)
	}
	cleanup = func() { p.cleanup(); os.RemoveAll(tmp) }
	// Never the config's output folder: the user's site stays as it is.
	p.opt.Output = filepath.Join(tmp, "site")
	res, err := build.Build(cmd.Context(), p.opt)
	if err != nil {
		return "", cleanup, failure(err)
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "skilldex mcp: %s\n", report.SummaryLine(res.Catalog.Summarize()))
	return p.opt.Output, cleanup, nil
}
