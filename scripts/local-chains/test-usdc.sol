// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.37;

/// @title TestUSDC: a minimal 6-decimals ERC-20 standing in for USD Coin on a local anvil chain.
/// @notice Test-only. `mint` is open to anyone, so never deploy this anywhere that matters.
/// @dev Compiled once by scripts/local-chains/compile-test-usdc.ts into test-usdc.json; regenerate
///      with `npx tsx scripts/local-chains/compile-test-usdc.ts` after editing this file.
///      The local chain copies the runtime code to the real Base USDC address with anvil_setCode,
///      which runs no constructor. So the contract has no constructor and no immutables, name,
///      symbol and decimals are compile-time constants, and all storage starts at zero.
///      Errors follow ERC-6093 so a failed transfer carries a decodable reason.
contract TestUSDC {
    string public constant name = "USD Coin";
    string public constant symbol = "USDC";
    uint8 public constant decimals = 6;

    uint256 public totalSupply;
    mapping(address owner => uint256) public balanceOf;
    mapping(address owner => mapping(address spender => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed);
    error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed);
    error ERC20InvalidReceiver(address receiver);

    /// @notice Creates `value` tokens for `to`. Open to anyone: this is a test token.
    function mint(address to, uint256 value) external {
        if (to == address(0)) revert ERC20InvalidReceiver(to);
        totalSupply += value;
        // Cannot overflow: every balance is at most totalSupply, which the line above checked.
        unchecked {
            balanceOf[to] += value;
        }
        emit Transfer(address(0), to, value);
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        // An allowance of type(uint256).max is "unlimited" and is not decreased, as in OpenZeppelin.
        if (allowed != type(uint256).max) {
            if (allowed < value) revert ERC20InsufficientAllowance(msg.sender, allowed, value);
            unchecked {
                allowance[from][msg.sender] = allowed - value;
            }
        }
        _transfer(from, to, value);
        return true;
    }

    function _transfer(address from, address to, uint256 value) private {
        if (to == address(0)) revert ERC20InvalidReceiver(to);
        uint256 balance = balanceOf[from];
        // Explicit check (not checked-arithmetic panic) so tests can land a reverted transfer with
        // a meaningful error.
        if (balance < value) revert ERC20InsufficientBalance(from, balance, value);
        unchecked {
            balanceOf[from] = balance - value;
            balanceOf[to] += value;
        }
        emit Transfer(from, to, value);
    }
}
